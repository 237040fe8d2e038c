package report

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/ddbharness/ddbharness/bench"
)

// TestMetricsReadBack: what WriteMetrics writes, DecodeMetrics reads back
// into the outcome that gate and compare measure: the run, its metrics,
// each pattern's, and the capacity report.
func TestMetricsReadBack(t *testing.T) {
	for name, out := range map[string]func() bench.Outcome{"limits off": sample, "throttled": throttledSample} {
		want := out()
		var b bytes.Buffer
		if err := WriteMetrics(&b, want); err != nil {
			t.Fatal(err)
		}
		m, err := DecodeMetrics(b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := m.Outcome()
		if got.Scenario != want.Scenario || !got.Started.Equal(want.Started) || got.Total.Requests != want.Total.Requests {
			t.Errorf("%s: read back %q %v %d calls, want %q %v %d", name, got.Scenario, got.Started, got.Total.Requests, want.Scenario, want.Started, want.Total.Requests)
		}
		if len(got.Patterns) != len(want.Patterns) {
			t.Fatalf("%s: %d patterns read back, want %d", name, len(got.Patterns), len(want.Patterns))
		}
		for i := range want.Patterns {
			if g, w := got.Patterns[i], want.Patterns[i]; g.ID != w.ID || g.Keys != w.Keys || g.Metrics.Requests != w.Metrics.Requests {
				t.Errorf("%s: pattern %d read back as %s %q %d calls, want %s %q %d", name, i, g.ID, g.Keys, g.Metrics.Requests, w.ID, w.Keys, w.Metrics.Requests)
			}
		}
		if !reflect.DeepEqual(got.Capacity.Cost, want.Capacity.Cost) || got.Capacity.Scale != want.Capacity.Scale || len(got.Capacity.Rules) != len(want.Capacity.Rules) {
			t.Errorf("%s: capacity read back as %+v, want %+v", name, got.Capacity.Cost, want.Capacity.Cost)
		}
		if (got.Throttling == nil) != (want.Throttling == nil) || got.Throttling != nil && got.Throttling.Scale != want.Throttling.Scale {
			t.Errorf("%s: throttling read back as %+v, want %+v", name, got.Throttling, want.Throttling)
		}
	}
}
