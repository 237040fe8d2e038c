package bench

import (
	"testing"

	"github.com/ddbharness/ddbharness/workload"
)

// TestTheModelsDeclaredPeakIsTheTargetRate: a scenario whose design's
// model declares its peak is forecast at it when bench is given no
// target rate, and at the one given otherwise; the report keeps the
// declared peak either way.
func TestTheModelsDeclaredPeakIsTheTargetRate(t *testing.T) {
	sc := workload.Scenario{DeclaredPeak: 400}
	if m := modelOf(sc, ModelInputs{}, 0, Limits{}); m.TargetRate != 400 || m.DeclaredPeak != 400 {
		t.Errorf("no target rate given: TargetRate %v, DeclaredPeak %v, want 400 and 400", m.TargetRate, m.DeclaredPeak)
	}
	if m := modelOf(sc, ModelInputs{}, 300, Limits{}); m.TargetRate != 300 || m.DeclaredPeak != 400 {
		t.Errorf("--target-rate 300: TargetRate %v, DeclaredPeak %v, want 300 and 400", m.TargetRate, m.DeclaredPeak)
	}
	if m := modelOf(workload.Scenario{}, ModelInputs{}, 0, Limits{}); m.TargetRate != 0 {
		t.Errorf("nothing declared nor given: TargetRate %v, want 0 (no forecast)", m.TargetRate)
	}

}
