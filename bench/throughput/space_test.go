package throughput

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
)

const sec = int64(time.Second)

// A new on-demand table: four partitions (AWS's 12,000 RRU or 4,000 WRU,
// either alone, at 3,000 RCU or 1,000 WCU a partition), and a budget that
// reads and writes share as a linear combination.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
func TestNewOnDemandSpace(t *testing.T) {
	s := NewSpace(Config{}, sec)
	if s.Count() != 4 {
		t.Errorf("a new on-demand table has %d partitions, want 4", s.Count())
	}
	if got := s.Limit(); got != [2]float64{ddbitem.PartitionRCU, ddbitem.PartitionWCU} {
		t.Errorf("partition limit %v", got)
	}
	// Half the warm writes leave half the warm reads.
	s.spend(sec, Write, ddbitem.NewOnDemandWRU/2)
	if got := s.budget[Read].tokens; got != ddbitem.NewOnDemandRRU/2 {
		t.Errorf("after 2,000 WRU, %g RRU left in the second, want 6,000", got)
	}
}

// A partition lets a call in while it holds units, goes into debt by what
// the call consumed, and refuses until it refills; the budget is apart.
func TestPartitionRefusesWhenSpent(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, Partitions: 1, IsolateAfter: -1}}, sec)
	now := sec
	if _, ok := s.Admit("k", Write, now); !ok {
		t.Fatal("a full partition refused")
	}
	s.Consume("k", [2]float64{0, 15}, now) // 10 WCU/s at 0.01: 5 in debt
	if part, ok := s.Admit("k", Write, now); ok || part != 0 {
		t.Fatalf("Admit after 15 of 10 WCU = %d, %v; want partition 0 refusing", part, ok)
	}
	if _, ok := s.Admit("k", Read, now); !ok {
		t.Error("reads refused for spent writes: the sides are apart")
	}
	if _, ok := s.Admit("k", Write, now+sec/2+1); !ok {
		t.Error("still refused once 5 units refilled")
	}
}

// A partition at 80 % of its limit for IsolateAfter moves its hottest
// value to a partition of its own.
func TestHotPartitionIsolatesItsHottestValue(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, Partitions: 1, IsolateAfter: 3 * time.Second}}, sec)
	var isolated bool
	for i := int64(1); i <= 5 && !isolated; i++ {
		_, a := s.Consume("hot", [2]float64{0, 8}, i*sec)
		_, b := s.Consume("cold", [2]float64{0, 1}, i*sec)
		isolated = a || b
	}
	if !isolated || s.Count() != 2 || s.Partition("hot") != 1 || s.Partition("cold") != 0 {
		t.Errorf("isolated %v, %d partitions, hot on %d, cold on %d; want hot alone on partition 1", isolated, s.Count(), s.Partition("hot"), s.Partition("cold"))
	}
}

// Heat is each side's share of its own limit: reads at 45% of the read
// limit beside writes at 45% of the write limit are neither side at the
// hot share, however long they last.
func TestHeatIsEachSideApart(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, Partitions: 1, IsolateAfter: 2 * time.Second}}, sec)
	lim := s.Limit()
	for i := int64(1); i <= 6; i++ {
		_, a := s.Consume("reader", [2]float64{0.45 * lim[Read], 0}, i*sec)
		_, b := s.Consume("writer", [2]float64{0, 0.45 * lim[Write]}, i*sec)
		if a || b {
			t.Fatalf("second %d isolated a value: 45%% of each side is not hot", i)
		}
	}
	// The same writes at 90% are hot.
	isolated := false
	for i := int64(7); i <= 12 && !isolated; i++ {
		_, a := s.Consume("reader", [2]float64{0.45 * lim[Read], 0}, i*sec)
		_, b := s.Consume("writer", [2]float64{0, 0.9 * lim[Write]}, i*sec)
		isolated = a || b
	}
	if !isolated {
		t.Error("writes at 90% of the write limit for 6 s did not isolate a value")
	}
}

// A charge no key addressed (key "") spends the budget alone: no
// partition is debited, whatever the placement would give "".
func TestConsumeWithoutAKeyIsTheBudgetsAlone(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, Partitions: 1, IsolateAfter: -1}}, sec)
	if part, _ := s.Consume("", [2]float64{2 * s.Limit()[Read], 0}, sec); part != -1 { // within the budget, twice the partition's
		t.Errorf("Consume(\"\") on partition %d, want -1", part)
	}
	if _, ok := s.Admit("k", Read, sec); !ok {
		t.Error("a scan's units refused a read of the partition it never touched")
	}
}

// Giving back a hold fills a bucket no further than its size: while the
// call was in flight the bucket refilled to full.
func TestReleaseStopsAtTheBucketsSize(t *testing.T) {
	b := NewBucket(10, 10, sec)
	b.Take(sec, 5)
	b.Take(3*sec, -5)
	if b.tokens != 10 {
		t.Errorf("after a hold of 5 given back 2 s later, %g tokens in a bucket of 10", b.tokens)
	}
}

// A call stamped a little before the second the space is in counts in
// that second: the second is neither recorded twice nor its heat reset.
func TestATimeBehindCountsInTheCurrentSecond(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, Partitions: 1, IsolateAfter: 3 * time.Second}}, sec)
	lim := s.Limit()[Write]
	isolated := false
	for i := int64(1); i <= 6 && !isolated; i++ {
		_, a := s.Consume("hot", [2]float64{0, 0.6 * lim}, i*sec)
		_, b := s.Consume("cold", [2]float64{0, 0.3 * lim}, i*sec+sec/2)
		_, c := s.Consume("hot", [2]float64{0, 0.05 * lim}, i*sec-1) // stamped in the second before, arriving after
		isolated = a || b || c
	}
	if !isolated {
		t.Error("a partition at 95% of its limit every second was not isolated: a late stamp broke its heat")
	}
}

// A partition idle for a second, then asked 1,500 WCU/s in calls of 94
// WCU (the lease-rush transactions), serves up to about twice its 1,000 in
// its first second: its one-second bucket is full and the last call let in
// takes it into debt. The bound, which heat.svg's cells over 100 % state:
// over any T whole seconds it serves at most (T + 1) × its limit and one
// call's units.
func TestPartitionOverLimitIsBounded(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{Partitions: 1, IsolateAfter: -1}}, sec)
	const seconds, perSec, u = 6, 16, 94.0 // 16 × 94 = 1,504 WCU asked a second
	served := make([]float64, seconds)
	for i := 1; i < seconds; i++ { // second 0 idle
		for c := range perSec {
			now := int64(1+i)*sec + int64(c)*sec/perSec
			if _, ok := s.Admit("LEASE#1", Write, now); ok {
				s.Consume("LEASE#1", [2]float64{0, u}, now)
				served[i] += u
			}
		}
	}
	if served[1] <= ddbitem.PartitionWCU {
		t.Errorf("first second after an idle one: served %.0f WCU, want over the 1,000 limit (the bucket's bank)", served[1])
	}
	for from := range seconds {
		got := 0.0
		for n := 1; from+n <= seconds; n++ {
			got += served[from+n-1]
			if bound := float64(n+1)*ddbitem.PartitionWCU + u; got > bound {
				t.Errorf("seconds %d to %d: served %.0f WCU, over the bound %.0f", from, from+n-1, got, bound)
			}
		}
	}
	t.Logf("served a second: %v", served)
}
