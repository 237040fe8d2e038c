package gate

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// run is a measured run: AP-01 made 10 calls (a Query and a PutItem
// each), AP-02 made 4 GetItems, and the model put the first throttle at
// 250 requests/s (a new table's warm throughput) against 100 measured.
func run() bench.Outcome {
	out := bench.Outcome{Outcome: engine.Outcome{Scenario: "shop/browse", Started: time.Unix(1_800_000_000, 0)}}
	out.Total = vegeta.Metrics{Requests: 14, Success: 0.99}
	out.Patterns = []engine.PatternMetrics{
		{Pattern: designs.Pattern{ID: "AP-01"}, Metrics: vegeta.Metrics{Requests: 10, Success: 1, Latencies: vegeta.LatencyMetrics{P99: 30 * time.Millisecond}}},
		{Pattern: designs.Pattern{ID: "AP-02"}, Metrics: vegeta.Metrics{Requests: 4, Success: 0.75}},
	}
	out.Capacity = capacity.Report{Billing: "on-demand", MeasuredRate: 100,
		Patterns: []ledger.PatternUsage{
			{PatternOp: ledger.PatternOp{Pattern: "AP-01", Op: "Query"}, RCU: 5},
			{PatternOp: ledger.PatternOp{Pattern: "AP-01", Op: "PutItem"}, WCU: 20, Grown: 3000},
			{PatternOp: ledger.PatternOp{Pattern: "AP-02", Op: "GetItem"}, RCU: 2},
		},
		Cost:    capacity.Cost{RCUPerRequest: 0.5, WCUPerRequest: 1.4, OnDemand: 0.9375, ReadRequestUnit: 0.125, WriteRequestUnit: 0.625, RCUHour: 0.00013, WCUHour: 0.00065, Utilization: 0.7},
		Ceiling: &capacity.Ceiling{Rate: 300},
		Warm:    &capacity.WarmCeiling{Rate: 250},
	}
	return out
}

func must(t *testing.T, s string) threshold.Threshold {
	t.Helper()
	th, err := threshold.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func TestMeasure(t *testing.T) {
	out := run()
	for _, tc := range []struct {
		expr string
		want float64
	}{
		{"wcu(AP-01) <= 4", 2},
		{"rcu(AP-01) <= 4", 0.5},
		{"rcu(AP-02) <= 4", 0.5},
		{"cost(AP-01) <= $1/M", 0.5*0.125 + 2*0.625},
		{"wcu <= 4", 1.4},
		{"cost <= $1/M", 0.9375},
		{"headroom >= 3x", 2.5},
		{"errors < 1%", 0.01},
		{"errors(AP-02) < 1%", 0.25},
		{"p99(AP-01) < 20ms", float64(30 * time.Millisecond)},
		{"throttled < 1%", 0}, // no call ended throttled
	} {
		got, why := Measure(out, must(t, tc.expr))
		if why != "" || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: measured %v (%s), want %v", tc.expr, got, why, tc.want)
		}
	}
	if f := PatternFigures(out)["AP-01"]; f.Bytes != 300 {
		t.Errorf("AP-01 grew %v bytes per call, want 300", f.Bytes)
	}
}

func TestMeasureEmulated(t *testing.T) {
	out := run()
	out.Throttling = &emulate.Throttling{Calls: 14, Throttled: 7, ConflictCancelled: 1, Patterns: []emulate.PatternThrottles{
		{Pattern: "AP-01", Calls: 10, Throttled: 2, ConflictCancelled: 1}, {Pattern: "AP-02", Calls: 4, Throttled: 5}}}
	for expr, want := range map[string]float64{"conflicts(AP-01) < 1%": 0.1, "conflicts < 1%": 1.0 / 14} {
		if got, why := Measure(out, must(t, expr)); why != "" || math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: measured %v (%s), want %v", expr, got, why, want)
		}
	}
}

// TestThrottledIsOneFigureLiveAndAfter: a throttled threshold reads one
// figure while the run goes (Live) and once it has ended (Measure,
// Evaluate): the share of pattern calls that ended throttled, which the
// report shows, not the emulator's share of DynamoDB requests (a pattern
// call may make several). A run a breach stopped shows it breached.
func TestThrottledIsOneFigureLiveAndAfter(t *testing.T) {
	out := run()
	out.Patterns[1].Metrics.StatusCodes = map[string]int{"200": 3, "429": 1}
	out.Total.StatusCodes = map[string]int{"200": 13, "429": 1}
	// The emulator counts requests: AP-01's 10 calls made 20, 1 throttled;
	// AP-02's 4 made 4, 1 throttled.
	out.Throttling = &emulate.Throttling{Calls: 24, Throttled: 2, Patterns: []emulate.PatternThrottles{
		{Pattern: "AP-01", Calls: 20, Throttled: 1}, {Pattern: "AP-02", Calls: 4, Throttled: 1}}}
	for expr, want := range map[string]float64{"throttled < 7% abort": 1.0 / 14, "throttled(AP-01) < 1% abort": 0, "throttled(AP-02) < 20% abort": 0.25} {
		th := must(t, expr)
		got, why := Measure(out, th)
		if why != "" || math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: measured %v (%s), want %v, the pattern calls' share", expr, got, why, want)
		}
		stop := Live([]threshold.Threshold{th})(out.Outcome)
		held := Evaluate(out, []threshold.Threshold{th})[0].Pass
		if (stop != "") == held {
			t.Errorf("%s: the live check says %q, the threshold after the run held=%v: want one verdict", expr, stop, held)
		}
	}
}

func TestEvaluateFailsWhatItCannotMeasure(t *testing.T) {
	out := run()
	out.Patterns = out.Patterns[:1]
	rs := Evaluate(out, []threshold.Threshold{must(t, "p99(AP-02) < 1s"), must(t, "wcu(AP-01) <= 2")})
	if rs[0].Pass || !strings.Contains(rs[0].Note, "AP-02 made no call") {
		t.Errorf("a pattern without calls: %+v, want failed, saying so", rs[0])
	}
	if !rs[1].Pass || rs[1].Text != "2" {
		t.Errorf("wcu(AP-01) <= 2 on 2 per call: %+v", rs[1])
	}
	out.Started = time.Time{}
	if r := Evaluate(out, []threshold.Threshold{must(t, "errors < 1%")})[0]; r.Pass {
		t.Errorf("a run that measured nothing passed: %+v", r)
	}
}

func TestCheckRefusesPatternsTheMixDoesNotCall(t *testing.T) {
	sc := scenarios.ShopBrowse
	if err := Check([]threshold.Threshold{must(t, "p99 < 1s"), must(t, "p99("+string(sc.Mix[0].Pattern)+") < 1s")}, sc); err != nil {
		t.Fatal(err)
	}
	err := Check([]threshold.Threshold{must(t, "wcu(AP-99) <= 1")}, sc)
	if err == nil || !strings.Contains(err.Error(), "AP-99 is not a pattern of design shop") || !strings.Contains(err.Error(), string(sc.Mix[0].Pattern)) {
		t.Fatalf("Check = %v, want AP-99 refused with the mix's patterns", err)
	}
}

func TestBaselineNamesWhatRegressed(t *testing.T) {
	var b Baseline
	b.Add(run())
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := WriteBaseline(path, b); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := b.Compare(run()); err != nil || len(cs) != 0 {
		t.Fatalf("the same run compared: %v, %v; want no change", cs, err)
	}
	wobble := run()
	wobble.Capacity.Patterns[1].WCU = 21 // AP-01: 2.1 WCU a call, within the tolerance
	if cs, _ := b.Compare(wobble); len(cs) != 0 {
		t.Errorf("a run within the tolerance compared: %v, want no change", cs)
	}
	worse := run()
	worse.Capacity.Patterns[1].WCU = 30 // AP-01: 3 WCU a call
	worse.Capacity.Patterns[2].RCU = 1  // AP-02: cheaper reads
	cs, err := b.Compare(worse)
	if err != nil {
		t.Fatal(err)
	}
	var regressed, improved []string
	for _, c := range cs {
		if c.Worse() {
			regressed = append(regressed, c.String())
		} else {
			improved = append(improved, c.String())
		}
	}
	if len(regressed) != 2 || !strings.Contains(regressed[0], "AP-01: cost per million") || !strings.Contains(regressed[1], "AP-01: wcu per call 2 → 3") {
		t.Errorf("regressed: %q, want AP-01's wcu and cost", regressed)
	}
	if len(improved) != 1 || !strings.Contains(improved[0], "AP-02: rcu per call 0.5 → 0.25") {
		t.Errorf("improved: %q, want AP-02's rcu (its cost moved by less than the slack)", improved)
	}
	if _, err := b.Compare(bench.Outcome{Outcome: engine.Outcome{Scenario: "shop/other"}}); err == nil {
		t.Error("a scenario the baseline lacks compared without an error")
	}
}

func TestBaselineComparesOnlyARunOnItsOwnPool(t *testing.T) {
	var b Baseline
	small := run()
	small.Pool = 200
	b.Add(small)
	if _, err := b.Compare(small); err != nil {
		t.Fatalf("a run on the baseline's pool: %v", err)
	}
	full := run()
	full.Pool = 2000
	_, err := b.Compare(full)
	if err == nil || !strings.Contains(err.Error(), "written on 200 entities, this run seeds 2000: run with --pool 200") {
		t.Errorf("a run on another pool: %v, want a refusal naming both pools and the flag", err)
	}
}

func TestLiveChecksOnlyAbortThresholdsOnTheCalls(t *testing.T) {
	so := run().Outcome
	so.Patterns[1].Metrics.StatusCodes = map[string]int{"200": 3, "429": 1}
	for _, tc := range []struct {
		exprs string
		want  string // "" when Live gives no check; "-" for a check that holds
	}{
		{"p99(AP-01) < 20ms", ""},                          // no abort
		{"wcu <= 1 abort; headroom >= 9x abort", ""},       // known once modelled
		{"conflicts < 1% abort", ""},                       // the emulator's, after the run
		{"errors(AP-02) < 50% abort; p99 < 1s abort", "-"}, // hold; the mix's p99 is 0
		{"p99(AP-01) < 20ms abort", "threshold p99(AP-01) < 20ms abort breached (30ms on the calls ended so far)"},
		{"throttled(AP-02) < 10% abort", "threshold throttled(AP-02) < 10% abort breached (25% on the calls ended so far)"},
		{"errors < 5% abort; errors(AP-02) <= 10% abort", "threshold errors(AP-02) <= 10% abort breached (25% on the calls ended so far)"},
		{"p99(AP-09) < 1ms abort", "-"}, // a pattern with no call yet
	} {
		ts, err := threshold.ParseList(tc.exprs)
		if err != nil {
			t.Fatal(err)
		}
		check := Live(ts)
		switch {
		case tc.want == "" && check != nil:
			t.Errorf("%s: a live check, want none", tc.exprs)
		case tc.want == "":
		case check == nil:
			t.Errorf("%s: no live check", tc.exprs)
		case tc.want == "-" && check(so) != "":
			t.Errorf("%s: stops with %q, want it to hold", tc.exprs, check(so))
		case tc.want != "-" && check(so) != tc.want:
			t.Errorf("%s: stops with %q, want %q", tc.exprs, check(so), tc.want)
		}
	}
}

// TestHeadroomGatesTheDeclaredPeak: with no target rate given, a design
// whose model declares its peak is forecast at it, and headroom is the
// first limit over that peak: 250 requests/s (the warm throughput, below
// the 300 of the first ceiling) against a declared 200 is 1.25×, which
// "headroom > 1.5x" breaches.
func TestHeadroomGatesTheDeclaredPeak(t *testing.T) {
	out := run()
	out.Capacity.TargetRate, out.Capacity.DeclaredPeak = 200, 200
	th := must(t, "headroom > 1.5x")
	if got, why := Measure(out, th); why != "" || got != 1.25 {
		t.Errorf("headroom: %v (%s), want 1.25", got, why)
	}
	if r := Evaluate(out, []threshold.Threshold{th}); len(r) != 1 || r[0].Pass {
		t.Errorf("headroom > 1.5x at 1.25×: %+v, want it breached", r)
	}
}

// TestHeadroomIsToTheFirstLimitOfEveryKind: a transaction conflict limit
// below every throttle is where the mix stops first, and headroom says so.
func TestHeadroomIsToTheFirstLimitOfEveryKind(t *testing.T) {
	out := run()
	out.Capacity.TargetRate = 100
	out.Capacity.FirstLimit = &capacity.Limit{Kind: "conflict", Rate: 150}
	if got, why := Measure(out, must(t, "headroom >= 3x")); why != "" || got != 1.5 {
		t.Errorf("headroom with a conflict limit at 150 requests/s, below the 250 of the warm throughput: %v (%s), want 1.5", got, why)
	}
}

// TestEveryMetricIsMeasured: each metric a threshold may name has a row in
// measures, and no row measures a metric the parser refuses: adding a
// metric is one row in each table, and this test says which is missing.
func TestEveryMetricIsMeasured(t *testing.T) {
	names := threshold.Metrics()
	for _, name := range names {
		m, ok := measures[name]
		if !ok {
			t.Errorf("threshold metric %s has no row in gate's measures: say how a run measures it", name)
			continue
		}
		if (m.calls == nil) == (m.run == nil) {
			t.Errorf("measures[%s] measures on the calls or on the run: give it one of the two", name)
		}
	}
	for name := range measures {
		if !slices.Contains(names, name) {
			t.Errorf("measures has %s, which no threshold may name: add it to threshold's metrics", name)
		}
	}
}
