package main

import (
	"context"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/scenarios"
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
