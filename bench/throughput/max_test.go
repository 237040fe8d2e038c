package throughput

import (
	"testing"
)

// An on-demand table's maximum write throughput refuses writes past it in
// a second, on partitions that still have units, and says so (OverMax);
// reads, which it does not cap, go on; a second later it serves again.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html
func TestMaxOnDemandRefusesPastIt(t *testing.T) {
	// At 0.01: 10 WCU/s of maximum beside 40 WRU/s warm, on 8 partitions
	// of 10 WCU/s each.
	s := NewSpace(Config{Settings: Settings{Scale: 0.01, MaxWrites: 1000, Partitions: 8, IsolateAfter: -1}}, sec)
	keys := keysOnPartitions(s, 3)
	for _, k := range keys[:2] {
		if _, ok := s.Admit(k, Write, sec); !ok {
			t.Fatalf("a write of %s refused before the maximum was reached", k)
		}
		s.Consume(k, [2]float64{0, 5}, sec)
	}
	part, ok := s.Admit(keys[2], Write, sec)
	if ok || part != -1 || !s.OverMax(Write, sec) {
		t.Fatalf("after 10 WCU of a 10 WCU/s maximum: Admit = %d, %v, OverMax %v; want the budget refusing, over its maximum", part, ok, s.OverMax(Write, sec))
	}
	if s.AtQuota(Write) {
		t.Error("a maximum below the quota reads as the account quota")
	}
	if _, ok := s.Admit(keys[2], Read, sec); !ok || s.OverMax(Read, sec) {
		t.Error("reads refused by a maximum set on writes alone")
	}
	if _, ok := s.Admit(keys[2], Write, 2*sec+1); !ok {
		t.Error("still refused a second later, the maximum refilled")
	}
}

// Growth never takes an on-demand table past its maximum: ramped to
// 20,000 writes/s for two hours, a table of maximum 6,000 serves about
// 6,000 a second at the end, keeps its allowance at the maximum, and has
// split only as far as 6,000 needs; without a maximum the same ramp grows
// near 20,000 (each call a tenth of a partition's limit, on hashed
// partitions).
func TestMaxOnDemandCapsGrowth(t *testing.T) {
	for _, c := range []struct {
		max    float64
		lo, hi float64 // served a second over the last ten minutes
	}{{6000, 5900, 6100}, {0, 19000, 20000}} {
		s := NewSpace(Config{Settings: Settings{MaxWrites: c.max, IsolateAfter: -1}}, sec)
		_, served := ramp(s, 1, 60, 7200, 20000, 200)
		if got := sum(served[7200-600:]) / 600; got < c.lo || got > c.hi {
			t.Errorf("maximum %.0f: served %.0f WCU/s over the last ten minutes, want %.0f to %.0f", c.max, got, c.lo, c.hi)
		}
		if c.max > 0 && s.budget[Write].rate > c.max {
			t.Errorf("maximum %.0f: the allowance grew to %.0f", c.max, s.budget[Write].rate)
		}
		if c.max > 0 && s.Count() > 8 {
			t.Errorf("maximum %.0f: %d partitions, want at most the 8 that 6,000 WCU/s needs", c.max, s.Count())
		}
	}
}

// keysOnPartitions returns n partition key values of s on n partitions.
func keysOnPartitions(s *Space, n int) []string {
	seen := map[int]bool{}
	var keys []string
	for i := 0; len(keys) < n; i++ {
		k := "K" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if p := s.Partition(k); !seen[p] {
			seen[p] = true
			keys = append(keys, k)
		}
	}
	return keys
}
