package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// Bench refuses a threshold it could never evaluate before anything runs:
// exit 2, naming the fault and the fix; a scenario's own thresholds are
// checked as the command line's are.
func TestBenchRefusesBadThresholds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--threshold", "p99(AP-03) < 20", "shop"}, `threshold "p99(AP-03) < 20": unit "": want a duration like 20ms`},
		{[]string{"--threshold", "errors < 1%; p99(AP-99) < 1s", "shop"}, "pattern AP-99 is not a pattern of design shop"},
		{[]string{"--retry-thresholds", "2", "shop"}, "want 0 (the default) or 1"},
		{[]string{"--check-baseline", "bench/baseline.json", "shop"}, "add --limits off"},
		{[]string{"--threshold", "", "shop"}, `"" holds no threshold, so it gates nothing`},
		{[]string{"--threshold", " ; ", "shop"}, "gates nothing"},
		{[]string{"--threshold", "errors < 101%", "shop"}, "at most 100%"},
		{[]string{"--threshold", "wcu >= 0", "shop"}, "gates nothing"},
	} {
		fs := newFlags("bench", "", "")
		err := runBench(context.Background(), fs, tc.args)
		if code, msg := exitCode(context.Background(), err); code != exitBadInput || !strings.Contains(msg, tc.want) {
			t.Errorf("bench %q: exit %d %q, want exit 2 saying %q", tc.args, code, msg, tc.want)
		}
	}
	sc := scenarios.ShopBrowse
	sc.Thresholds = []string{"wcu(AP-05) <= 4 ms"}
	if _, err := (&gateFlags{retry: new(int)}).thresholds(append(scenarios.Defaults()[:0:0], sc)); err == nil || !strings.Contains(err.Error(), "shop/browse's Thresholds") {
		t.Errorf("a scenario's bad threshold: %v, want it refused, naming the scenario", err)
	}
}

// A rerun settles latency thresholds only: they are measured on the
// rerun and marked so; every other threshold keeps the first run's
// verdict, never rerun.
func TestRerunEvaluatesLatenciesOnly(t *testing.T) {
	ts, err := threshold.ParseList("p99 < 20ms; wcu <= 1")
	if err != nil {
		t.Fatal(err)
	}
	if !latencyBreached(ts, []threshold.Result{{Pass: false}, {Pass: true}}) || latencyBreached(ts, []threshold.Result{{Pass: true}, {Pass: false}}) {
		t.Fatal("latencyBreached: want true for a breached p99 only")
	}
	first := []threshold.Result{{Threshold: "p99 < 20ms", Text: "25ms"}, {Threshold: "wcu <= 1", Text: "2 (first run)"}}
	var rerun bench.Outcome
	rerun.Started = time.Unix(1_800_000_000, 0)
	rerun.Total = vegeta.Metrics{Requests: 10, Success: 1, Latencies: vegeta.LatencyMetrics{P99: 12 * time.Millisecond}}
	rs := rerunEval(ts, first)(rerun)
	if !rs[0].Pass || !rs[0].Retried || rs[0].Text != "12ms" {
		t.Errorf("p99 on the rerun: %+v, want held at 12ms, marked retried", rs[0])
	}
	if rs[1] != first[1] {
		t.Errorf("wcu on the rerun: %+v, want the first run's %+v", rs[1], first[1])
	}
}

// A baseline that cannot check the run is refused before anything runs
// (exit 2, no DynamoDB started, nothing seeded), naming the fix: a file
// that is not a regular one, a scenario the baseline lacks, another
// pool; so is a file to write the baseline to that could not be written
// at the run's end.
func TestBenchRefusesABaselineBeforeItRuns(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(base, []byte(`{"format": "ddbharness-baseline/1", "scenarios": {"shop/browse": {"AP-01": {"rcu_per_call": 1, "wcu_per_call": 0, "cost_per_million": 0.125, "bytes_grown_per_call": 0}}}, "pools": {"shop/browse": 2000}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--check-baseline", "/dev/zero", "shop"}, "/dev/zero is not a regular file but a device"},
		{[]string{"--check-baseline", dir, "shop"}, "is not a regular file but a folder"},
		{[]string{"--check-baseline", base, "invoicing"}, "baseline has no scenario invoicing/month-end"},
		{[]string{"--check-baseline", base, "--pool", "200", "shop"}, "run with --pool 2000"},
		{[]string{"--write-baseline", "/dev/null", "shop"}, "/dev/null is not a regular file"},
		{[]string{"--write-baseline", filepath.Join(dir, "no", "b.json"), "shop"}, "its folder " + filepath.Join(dir, "no") + " is not there"},
	} {
		fs := newFlags("bench", "", "")
		args := append([]string{"--limits", "off", "--out", filepath.Join(dir, "reports")}, tc.args...)
		err := runBench(t.Context(), fs, args)
		if code, msg := exitCode(t.Context(), err); code != exitBadInput || !strings.Contains(msg, tc.want) {
			t.Errorf("bench %q: exit %d %q, want exit 2 saying %q", tc.args, code, msg, tc.want)
		}
	}
}
