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

// TestMetricsReadsTheFormerSpellings: a metrics.json written before the
// capacity report's rules were named rules, and the emulator's scale
// limits_scale, is read as one written now.
func TestMetricsReadsTheFormerSpellings(t *testing.T) {
	m, err := DecodeMetrics([]byte(`{"capacity": {"limits": [{"id": "partition-writes", "name": "Partition writes", "basis": "documented"}], "limits_scale": 0.01},
		"throttling": {"scale": 0.01, "billing": "on-demand"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Capacity == nil || len(m.Capacity.Rules) != 1 || m.Capacity.Rules[0].ID != "partition-writes" || m.Capacity.Scale != 0.01 {
		t.Errorf("capacity read as %+v, want its one rule and scale 0.01", m.Capacity)
	}
	if m.Throttling == nil || m.Throttling.Scale != 0.01 || m.Throttling.Billing != "on-demand" {
		t.Errorf("throttling read as %+v, want scale 0.01", m.Throttling)
	}
	now, err := DecodeMetrics([]byte(`{"capacity": {"rules": [{"id": "a"}], "limits": [{"id": "b"}]}, "throttling": {"limits_scale": 0.5, "scale": 0.01}}`))
	if err != nil {
		t.Fatal(err)
	}
	if now.Capacity.Rules[0].ID != "a" || now.Throttling.Scale != 0.5 {
		t.Errorf("with both spellings, read %+v and %v: want the current one's", now.Capacity.Rules, now.Throttling.Scale)
	}
}
