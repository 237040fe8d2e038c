package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
)

// files writes every file of out's report and returns them by name.
func files(t *testing.T, out bench.Outcome) map[string]string {
	t.Helper()
	dir, err := Write(t.TempDir(), out)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := map[string]string{}
	for _, w := range writers {
		b, err := os.ReadFile(filepath.Join(dir, w.name))
		if err != nil {
			t.Fatal(err)
		}
		got[w.name] = string(b)
	}
	return got
}

func metricsOf(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("metrics.json: %v\n%s", err, doc)
	}
	return m
}

func contains(t *testing.T, file, doc string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(doc, w) {
			t.Errorf("%s lacks %q:\n%s", file, w, doc)
		}
	}
}

func lacks(t *testing.T, file, doc string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(doc, w) {
			t.Errorf("%s says %q:\n%s", file, w, doc)
		}
	}
}

func TestInterruptedWhileMeasuringSaysHowMuchRan(t *testing.T) {
	out := sample()
	out.Duration, out.Elapsed, out.Interrupted = 20*time.Second, 7600*time.Millisecond, true
	f := files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "ran 7.6 s of the 20s asked for, interrupted", "**Interrupted** 7.6 s into the 20s asked for",
		"## Findings (the 7.6 s measured before the interruption)")
	lacks(t, SummaryFile, f[SummaryFile], "ran for 20s")
	contains(t, PlotFile, f[PlotFile], "invoicing/month-end (interrupted at 7.6 s of 20s)")
	contains(t, HeatFile, f[HeatFile], "invoicing/month-end (interrupted at 7.6 s of 20s)")
	m := metricsOf(t, f[MetricsFile])
	if m["state"] != StateInterrupted || m["stopped_while"] != PhaseMeasuring {
		t.Errorf("metrics.json: state %v while %v, want interrupted while measuring", m["state"], m["stopped_while"])
	}
	if h := Headline(out); !strings.HasPrefix(h, "interrupted: ran 7.6 s of the 20s asked for; ") {
		t.Errorf("Headline = %q", h)
	}
}

func TestInterruptedWhileSeedingShowsNoFigures(t *testing.T) {
	out := bench.Outcome{Outcome: engine.Outcome{Scenario: "shop/browse", Design: "shop", Table: "ddbh-shop-bench-1",
		Pacer: "Constant{300 hits/1s}", Pool: 2000, Workers: 64, Duration: 20 * time.Second, Warmup: 3 * time.Second, Interrupted: true}}
	f := files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "**Interrupted while seeding**, before measuring", "## Nothing measured")
	lacks(t, SummaryFile, f[SummaryFile], "0001-01-01", "Success", "100.0%", "ran for")
	lacks(t, HeatFile, f[HeatFile], "0001-01-01")
	contains(t, PlotFile, f[PlotFile], "shop/browse (interrupted while seeding: nothing measured)")
	m := metricsOf(t, f[MetricsFile])
	if m["started"] != nil || m["total"] != nil || m["capacity"] != nil {
		t.Errorf("metrics.json of a run that measured nothing: started %v, total %v, capacity %v; want all null", m["started"], m["total"], m["capacity"])
	}
	if m["stopped_while"] != PhaseSeeding {
		t.Errorf("metrics.json: stopped_while %v, want seeding", m["stopped_while"])
	}
	if h := Headline(out); h != "interrupted while seeding, before measuring: nothing measured" {
		t.Errorf("Headline = %q", h)
	}
	out.SeedTime = time.Second
	if h := Headline(out); h != "interrupted while warming up, before measuring: nothing measured" {
		t.Errorf("Headline after seeding = %q", h)
	}
}

func TestFailedRunOpensWithWhatHappened(t *testing.T) {
	out := sample()
	out.Duration, out.Elapsed = 30*time.Second, 6*time.Second
	out.Failure = &engine.Failure{At: 4200 * time.Millisecond,
		Reason: "DynamoDB Local (http://127.0.0.1:1234) exited at 10:15:04.200 (signal: killed); its last lines:\nInitializing DynamoDB Local\nPort: 1234",
		Logs:   "Initializing DynamoDB Local\nPort: 1234"}
	f := files(t, out)
	sum := f[SummaryFile]
	if !strings.HasPrefix(sum, "# invoicing/month-end\n\n**FAILED: the test bed failed 4.2 s into the 30s run.** DynamoDB Local (http://127.0.0.1:1234) exited at 10:15:04.200 (signal: killed).") {
		t.Errorf("summary.md does not open with the failure:\n%s", sum)
	}
	contains(t, SummaryFile, sum, "10:15:04.200 UTC, 4.2 s into measuring", "```\nInitializing DynamoDB Local\nPort: 1234\n```",
		"## Findings (the 4.2 s before the failure only)", "ran 6.0 s of the 30s asked for, stopped by a failure of the test bed")
	lacks(t, SummaryFile, sum, "ran for 30s")
	contains(t, PlotFile, f[PlotFile], "FAILED 4.2 s into 30s")
	m := metricsOf(t, f[MetricsFile])
	fail, _ := m["failure"].(map[string]any)
	if m["state"] != StateFailed || fail == nil || fail["at"] != float64(4200*time.Millisecond) || fail["time"] != "2026-05-22T10:15:04.2Z" ||
		!strings.Contains(fail["reason"].(string), "signal: killed") || fail["logs"] != "Initializing DynamoDB Local\nPort: 1234" {
		t.Errorf("metrics.json: state %v, failure %v", m["state"], m["failure"])
	}
	if m["capacity_covers"] != float64(4200*time.Millisecond) {
		t.Errorf("metrics.json: capacity_covers %v, want 4.2 s", m["capacity_covers"])
	}
	h := Headline(out)
	if !strings.HasPrefix(h, "FAILED: the test bed failed 4.2 s into the 30s run: DynamoDB Local (http://127.0.0.1:1234) exited") ||
		!strings.HasSuffix(h, ", from the 4.2 s before the failure") {
		t.Errorf("Headline = %q", h)
	}
}

func TestHeadlineNamesTheWarmCeilingWhenItComesFirst(t *testing.T) {
	out := sample()
	out.Capacity.Warm.Rate = 400 // below the sample's 571 requests/s partition ceiling
	if h := Headline(out); !strings.HasSuffix(h, "first throttle forecast: table CLIENT#1 at 571 requests/s (1,000 WCU/s per partition; 28.6× this run) [inferred: partitions-on-demand, placement, hot-keys, light-keys]; "+
		"a new on-demand table throttles sooner, from 400 requests/s (table's warm throughput, 12,000 RRU/s or 4,000 WRU/s or a linear combination), until it grows [documented: warm-reads, warm-writes, warm-combination]") {
		t.Errorf("Headline = %q", h)
	}
	if h := Headline(sample()); strings.Contains(h, "warm") {
		t.Errorf("Headline = %q names a warm ceiling above the steady one", h)
	}
}

// The headline says "on real DynamoDB" only of a first throttle whose
// rules AWS's pages state (a table's quota), and "forecast" of one that
// rests on the placement or on a source it does not know; each with its
// mark. On a partition it names the hot keys placed there and what each
// alone would reach, not the odds of sharing.
func TestHeadlineSaysWhatTheFirstThrottleRestsOn(t *testing.T) {
	quota := sample()
	quota.Capacity.Ceiling = &capacity.Ceiling{Target: designs.MainTable, Limit: "40,000 WRU/s on-demand table quota", Rate: 19221, Factor: 961,
		Source: rules.Cite("quota-reads", "quota-writes")}
	quota.Capacity.Warm = nil
	if h := Headline(quota); !strings.HasSuffix(h, "first throttle on real DynamoDB: table at 19221 requests/s (40,000 WRU/s on-demand table quota; 961.0× this run) [documented: quota-reads, quota-writes]") {
		t.Errorf("Headline of a table quota = %q", h)
	}
	unknown := quota
	unknown.Capacity.Ceiling = &capacity.Ceiling{Target: designs.MainTable, Limit: "40,000 WRU/s on-demand table quota", Rate: 19221, Factor: 961}
	if h := Headline(unknown); !strings.HasSuffix(h, "first throttle forecast: table at 19221 requests/s (40,000 WRU/s on-demand table quota; 961.0× this run)") {
		t.Errorf("Headline of a ceiling with no source = %q", h)
	}
	h := Headline(throttledSample())
	if want := "first throttle forecast at DynamoDB's limits × 0.01: table CLIENT#1 at 5.71 requests/s (10 WCU/s per partition; 0.3× this run) " +
		"on its partition as placed with CLIENT#4, CLIENT#2 (alone: CLIENT#1 8, CLIENT#4 40, CLIENT#2 50; hot keys spread as likely: 7.2; all on its partition: 5.71 requests/s) " +
		"[inferred: partitions-on-demand, placement, hot-keys, light-keys]"; !strings.HasSuffix(h, want) {
		t.Errorf("Headline of a partition shared by three hot keys = %q, want it to end %q", h, want)
	}
	if strings.Contains(h, "p =") || strings.Contains(h, "real DynamoDB") {
		t.Errorf("Headline = %q: no odds, and no figure of the placement called real DynamoDB's", h)
	}
}

func TestFailedAtOnceShowsNoFindings(t *testing.T) {
	out := sample()
	out.Failure = &engine.Failure{At: 0, Reason: "DynamoDB Local exited"}
	f := files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "None: the test bed failed before any healthy stretch of measuring.")
	lacks(t, SummaryFile, f[SummaryFile], "CLIENT#1", "## Capacity on real DynamoDB", "The last lines")
	if m := metricsOf(t, f[MetricsFile]); m["capacity"] != nil {
		t.Errorf("metrics.json of a run that failed at once carries capacity %v", m["capacity"])
	}
	if h := Headline(out); strings.Contains(h, "first throttle") {
		t.Errorf("Headline of a run that failed at once has a finding: %q", h)
	}

	out = bench.Outcome{Outcome: engine.Outcome{Scenario: "shop/browse", Design: "shop", Duration: 20 * time.Second,
		Failure: &engine.Failure{At: -time.Second, Reason: "DynamoDB Local exited"}}}
	f = files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "**FAILED: the test bed failed while seeding, before measuring.** DynamoDB Local exited.")
	lacks(t, SummaryFile, f[SummaryFile], "0001-01-01", "Success")
	if m := metricsOf(t, f[MetricsFile]); m["failure"] == nil || m["state"] != StateFailed || m["started"] != nil {
		t.Errorf("metrics.json: %v", m)
	}
}

func TestNonFiniteFiguresCostNoFile(t *testing.T) {
	out := sample()
	out.TargetRate = math.NaN()
	out.Capacity.TargetRate = math.NaN()
	out.Capacity.Ceiling.Factor = math.Inf(1)
	out.Capacity.Hot[0].ThrottleRate = math.Inf(-1)
	out.Total.Rate = math.NaN()
	root := t.TempDir()
	dir, err := Write(root, out)
	if err != nil {
		t.Fatalf("Write with NaN and Inf figures: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	m := metricsOf(t, string(b))
	bad, _ := m["non_finite"].([]any)
	var names []string
	for _, b := range bad {
		names = append(names, b.(string))
	}
	want := "Total.Rate Capacity.TargetRate Capacity.Hot[0].ThrottleRate Capacity.Ceiling.Factor"
	if strings.Join(names, " ") != want {
		t.Errorf("non_finite = %v, want %s", names, want)
	}
	// What the caller shares with Write through pointers and slices.
	if !math.IsInf(out.Capacity.Ceiling.Factor, 1) || !math.IsInf(out.Capacity.Hot[0].ThrottleRate, -1) {
		t.Error("WriteMetrics changed the Outcome it was given")
	}
	for _, w := range writers {
		if fi, err := os.Stat(filepath.Join(dir, w.name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty (%v)", w.name, err)
		}
	}
	if got, err := Latest(root); err != nil || got != dir {
		t.Errorf("Latest = %s, %v; want %s", got, err, dir)
	}
}

func TestOneFailingFileCostsOnlyItself(t *testing.T) {
	saved := writers
	defer func() { writers = saved }()
	writers = append([]struct {
		name  string
		write func(io.Writer, bench.Outcome) error
	}{}, saved...)
	writers[1].write = func(io.Writer, bench.Outcome) error { return errors.New("no room") }
	writers[2].write = func(io.Writer, bench.Outcome) error { panic("unexpected figure") }
	root := t.TempDir()
	dir, err := Write(root, sample())
	if err == nil || !strings.Contains(err.Error(), MetricsFile+": no room") || !strings.Contains(err.Error(), ResultsFile+": could not be written: unexpected figure") {
		t.Errorf("Write with two failing files: %v", err)
	}
	for _, name := range []string{SummaryFile, PlotFile, HeatFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty after another file failed (%v)", name, err)
		}
	}
	if got, err := Latest(root); err != nil || got != dir {
		t.Errorf("Latest = %s, %v; want %s", got, err, dir)
	}
	var b bytes.Buffer
	if err := WriteSummary(&b, sample()); err != nil || b.Len() == 0 {
		t.Errorf("WriteSummary: %v", err)
	}
}

func TestSaturationIsTheTestBedsNotTheDesigns(t *testing.T) {
	out := sample()
	out.Saturated = &engine.Saturation{At: 2 * time.Second, Rate: 250, Reason: "no call ended for 2.1 s with 64 in flight"}
	f := files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "**Saturated**: The test bed saturated at 250 calls/s, 2.0 s into measuring: this client or DynamoDB Local could not keep the pace, so latencies from then on are the test bed's, not the design's; a lower rate (RATE) keeps it. No call ended for 2.1 s with 64 in flight.")
	lacks(t, SummaryFile, f[SummaryFile], "backoff", "LIMITS=off,") // limits off: no throttling to blame or to turn off
	m := metricsOf(t, f[MetricsFile])
	if sat, _ := m["saturated"].(map[string]any); sat == nil || sat["rate"] != 250.0 || sat["at"] != float64(2*time.Second) {
		t.Errorf("metrics.json: saturated %v", m["saturated"])
	}
	if h := Headline(out); !strings.Contains(h, "; the test bed saturated at 250 calls/s, 2.0 s into measuring") {
		t.Errorf("Headline = %q", h)
	}
}
