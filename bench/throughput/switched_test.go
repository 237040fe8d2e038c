package throughput

import (
	"testing"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// A table switched from provisioned to on-demand starts at the higher of
// what it was provisioned with and a new table's warm throughput (its
// previous peak is half its provisioned throughput, and it serves twice
// its previous peak at once), on the partitions it had provisioned, which
// it keeps.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-switching-capacity-modes.html
// https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
func TestSwitchedFromProvisioned(t *testing.T) {
	for _, c := range []struct {
		name          string
		rcu, wcu      float64
		reads, writes float64 // its allowance
		partitions    int
	}{
		// 24,000 ÷ 3,000 + 8,000 ÷ 1,000: the 16 provisioned partitions,
		// where its warm throughput alone would need 8.
		{"8,000 WCU and 24,000 RCU", 24000, 8000, 24000, 8000, 16},
		// Below a new table's: a new table's, on its 4 partitions.
		{"100 WCU and 100 RCU", 100, 100, ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU, 4},
		// Each side the higher of the two.
		{"10,000 WCU and 10,000 RCU", 10000, 10000, ddbitem.NewOnDemandRRU, 10000, 14},
	} {
		s := NewSpace(Config{Settings: Settings{SwitchedRCU: c.rcu, SwitchedWCU: c.wcu}}, sec)
		if got := [2]float64{s.budget[Read].rate, s.budget[Write].rate}; got != [2]float64{c.reads, c.writes} {
			t.Errorf("switched from %s: serves %v RRU and WRU a second, want %g and %g", c.name, got, c.reads, c.writes)
		}
		if s.Count() != c.partitions {
			t.Errorf("switched from %s: %d partitions, want %d", c.name, s.Count(), c.partitions)
		}
	}
}
