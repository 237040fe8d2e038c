package gate

import (
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
)

// limited is run() with its first limit at rate requests/s.
func limited(rate float64) bench.Outcome {
	out := run()
	out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitPartition, Target: "main-table", Key: "PROD", Pattern: "AP-01", Rate: rate}
	return out
}

func TestBaselineGatesTheFirstLimit(t *testing.T) {
	var b Baseline
	b.Add(limited(1000))
	if l := b.FirstLimits[run().Scenario]; l.Rate != 1000 || !strings.Contains(l.Limit, "PROD") {
		t.Fatalf("the baseline recorded %+v, want the run's first limit at 1000", l)
	}
	if cs, _ := b.Compare(limited(900)); len(cs) != 0 {
		t.Errorf("a first limit 10%% sooner compared: %v, want no change (within the tolerance)", cs)
	}
	cs, _ := b.Compare(limited(700))
	if len(cs) != 1 || !cs[0].Worse() || !strings.Contains(cs[0].String(), "first limit at 1000 requests/s → 700 (-30.0%)") {
		t.Errorf("a first limit 30%% sooner: %v, want one regression naming both rates", cs)
	}
	cs, _ = b.Compare(limited(1500))
	if len(cs) != 1 || cs[0].Worse() {
		t.Errorf("a first limit 50%% later: %v, want one improvement", cs)
	}
	none := run()
	none.Capacity.FirstLimit = nil
	cs, _ = b.Compare(none)
	if len(cs) != 1 || cs[0].Worse() || !strings.Contains(cs[0].String(), "now none reached") {
		t.Errorf("no first limit reached: %v, want one change, not a regression, saying so", cs)
	}
	var old Baseline // a baseline written before first limits were recorded
	old.Add(run())
	if cs, _ := old.Compare(limited(1)); len(cs) != 0 {
		t.Errorf("a baseline with no first limit compared: %v, want no change", cs)
	}
}
