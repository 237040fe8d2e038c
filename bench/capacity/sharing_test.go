package capacity

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddbharness/ddbharness/bench/throughput"
)

// Over many placement seeds, the share of seeds on which two of h hot keys
// land on one partition is ShareOdds(h, p): each seed is another draw, so
// the odds the report gives are the odds of the placement it uses. Seeds
// run in order from 1, as PLACEMENT_SEED=1, 2, ... would.
func TestPlacementSeedsShareAsTheOddsSay(t *testing.T) {
	const seeds = 10_000
	synthetic := func(prefix string, h int) []string {
		keys := make([]string, h)
		for i := range keys {
			keys[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return keys
	}
	sets := []struct {
		name string
		keys []string
	}{
		// accountpool/lease-rush's and shop's hottest partition key values.
		{"accountpool", []string{"lease_status#active", "account_status#available", "account_status#leased"}},
		{"shop", []string{"USER", "CAT", "BRAND", "PROD"}},
		{"K0-K1", synthetic("K", 2)},
		{"tenant#0-4", synthetic("tenant#", 5)},
	}
	for _, set := range sets {
		name, keys := set.name, set.keys
		for _, p := range []int{4, 8, 14, 40} {
			shared := 0
			for seed := uint64(1); seed <= seeds; seed++ {
				var taken [40]bool
				for _, k := range keys {
					i := throughput.Placement(k, p, seed)
					if taken[i] {
						shared++
						break
					}
					taken[i] = true
				}
			}
			got, want := float64(shared)/seeds, ShareOdds(len(keys), p)
			t.Logf("%s on %d: %.3f, odds %.3f", name, p, got, want)
			if math.Abs(got-want) > 0.05 {
				t.Errorf("%s (%d keys) on %d partitions: two shared one on %.1f %% of %d seeds, the odds say %.1f %%",
					name, len(keys), p, 100*got, seeds, 100*want)
			}
		}
	}
}
