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
	s := NewSpace(Config{Scale: 0.01, Partitions: 1, IsolateAfter: -1}, sec)
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
	s := NewSpace(Config{Scale: 0.01, Partitions: 1, IsolateAfter: 3 * time.Second}, sec)
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
