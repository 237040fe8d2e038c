package throughput

import (
	"strconv"
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

// A table switched to on-demand from 24,000 RCU and 8,000 WCU, offered
// AWS's own example load of 18,000 reads and 6,000 writes a second, serves
// both in full: it sustains at least its old provisioned reads and writes
// at once. The linear combination of reads and writes is a new table's
// (which would serve 18,000 and 2,000).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-switching-capacity-modes.html
func TestSwitchedTableServesItsReadsAndWrites(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{SwitchedRCU: 24000, SwitchedWCU: 8000, IsolateAfter: -1}}, sec)
	const seconds, calls = 60, 240 // a second's calls of each side, 75 RCU and 25 WCU each
	var asked, served [2]float64
	for i := range seconds {
		for c := range calls {
			now := int64(1+i)*sec + int64(c)*sec/calls
			for side, u := range [2]float64{18000.0 / calls, 6000.0 / calls} {
				key := "k" + strconv.Itoa(c%160)
				asked[side] += u
				if _, ok := s.Admit(key, side, now); ok {
					var units [2]float64
					units[side] = u
					s.Consume(key, units, now)
					served[side] += u
				}
			}
		}
	}
	for side, name := range [2]string{"reads", "writes"} {
		if served[side] < 0.99*asked[side] {
			t.Errorf("%s: served %.0f a second of the %.0f asked, want all", name, served[side]/seconds, asked[side]/seconds)
		}
	}
}
