package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/gate"
	"github.com/ddbharness/ddbharness/workload"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// baselineRun is how a run that writes or checks a baseline differs: it
// warms nothing up, as its figures are per call, computed from item sizes,
// which a warm-up changes in no way a baseline needs. It drains until
// every call of the seeded schedule has ended (baselineDrain bounds the
// wait): on a loaded machine the usual 10 s cut a third of a 2 s window's
// calls, most of them the slow transactions, so the ledger, and the first
// limit computed from it, held other calls than on a quiet one.
var baselineRun = []engine.Option{engine.Warmup(0), engine.Drain(baselineDrain)}

// baselineDrain bounds how long a baseline run waits for the calls its
// window made due: far past any call DynamoDB Local answers, even beside
// two busy loops and another bench.
const baselineDrain = 3 * time.Minute

// gateFlags are bench's pass/fail flags: thresholds, their rerun, and
// the baseline.
type gateFlags struct {
	exprs         []string
	retry         *int
	writeBaseline *string
	checkBaseline *string
}

func addGateFlags(fs *flag.FlagSet) *gateFlags {
	g := &gateFlags{}
	fs.Func("threshold", "a gate the run must pass, like 'p99(AP-03) < 20ms' or 'errors < 1% abort' (repeatable, or several split by ;): bench exits 99 when one is breached (THRESHOLDS)", func(s string) error {
		// An empty one would run with no gate and exit 0, as if it had passed.
		if strings.Trim(s, " \t;") == "" {
			return fmt.Errorf("%q holds no threshold, so it gates nothing: give one like '%s', or leave --threshold (THRESHOLDS) out", s, threshold.Example)
		}
		g.exprs = append(g.exprs, s)
		return nil
	})
	g.retry = fs.Int("retry-thresholds", 0, "run a scenario again, up to this many times (0 or 1), when a latency threshold is breached; other figures are never rerun (RETRY_THRESHOLDS)")
	g.writeBaseline = fs.String("write-baseline", "", "write each scenario's deterministic figures per pattern to this file (make bench-baseline; needs --limits off)")
	g.checkBaseline = fs.String("check-baseline", "", "compare each scenario's deterministic figures per pattern with this baseline file and exit 99 on a regression (make bench-check; needs --limits off)")
	return g
}

// thresholds parses the command line's thresholds and each run's own,
// and refuses, before anything runs, one that does not parse or names a
// pattern the run's mix does not call.
func (g *gateFlags) thresholds(runs []workload.Scenario) ([][]threshold.Threshold, error) {
	if *g.retry < 0 || *g.retry > 1 {
		return nil, badInputf("bench: --retry-thresholds=%d (RETRY_THRESHOLDS): want 0 (the default) or 1: a latency threshold breached twice is breached", *g.retry)
	}
	cli, err := threshold.ParseList(strings.Join(g.exprs, ";"))
	if err != nil {
		return nil, badInputf("bench: --threshold (THRESHOLDS): %v", err)
	}
	out := make([][]threshold.Threshold, len(runs))
	for i, sc := range runs {
		own, err := threshold.ParseList(strings.Join(sc.Thresholds, ";"))
		if err != nil {
			return nil, badInputf("bench: scenario %s's Thresholds: %v", sc.Name, err)
		}
		out[i] = append(own, cli...)
		if err := gate.Check(out[i], sc); err != nil {
			return nil, badInputf("bench: %v", err)
		}
	}
	return out, nil
}

// baselineMode refuses a baseline flag with the limits on, or both at
// once, and reads the baseline to check against.
func (g *gateFlags) baselineMode(ctx context.Context, lim bench.Limits) (*gate.Baseline, error) {
	w, c := *g.writeBaseline, *g.checkBaseline
	switch {
	case w == "" && c == "":
		return nil, nil
	case w != "" && c != "":
		return nil, badInputf("bench: --write-baseline and --check-baseline together: write it (make bench-baseline) or check against it (make bench-check)")
	case !lim.Off:
		return nil, badInputf("bench: the baseline's figures are charged with the limits off (throttled calls retry and vary): add --limits off, as make bench-baseline and bench-check do")
	case c == "":
		return &gate.Baseline{}, writableFile("--write-baseline", w)
	}
	b, err := gate.ReadBaseline(ctx, c)
	if err != nil && ctx.Err() != nil {
		return nil, errInterrupted
	}
	if err != nil {
		return nil, badInputf("bench: --check-baseline: %v", err)
	}
	return &b, nil
}

// writableFile refuses, before anything runs, a file to write at the
// run's end that is not a regular file (a named pipe, a device, a
// folder) or whose folder is missing: the run would be lost at its end.
func writableFile(flag, path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return badInputf("bench: %s=%s is not a regular file: name a file the baseline is written to, like bench/baseline.json", flag, path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return badInputf("bench: %s=%s: its folder %s is not there: name a file in a folder that is", flag, path, filepath.Dir(path))
	}
	return nil
}

// baselineHolds refuses, before anything runs, a run the baseline
// cannot be compared with: a scenario it lacks, or another pool.
func (g *gateFlags) baselineHolds(b *gate.Baseline, runs []workload.Scenario) error {
	if b == nil || *g.checkBaseline == "" {
		return nil
	}
	for _, sc := range runs {
		if err := b.Holds(sc.Name, sc.Pool); err != nil {
			return badInputf("bench: --check-baseline %s: %v", *g.checkBaseline, err)
		}
	}
	return nil
}

// latencyBreached reports whether a latency threshold failed: the one
// kind a rerun may settle.
func latencyBreached(ts []threshold.Threshold, rs []threshold.Result) bool {
	for i, r := range rs {
		if !r.Pass && ts[i].Latency() {
			return true
		}
	}
	return false
}

// rerunEval evaluates a rerun: latency thresholds on it, marked Retried;
// every other threshold keeps the first run's result, never rerun.
func rerunEval(ts []threshold.Threshold, first []threshold.Result) func(bench.Outcome) []threshold.Result {
	return func(out bench.Outcome) []threshold.Result {
		rs := gate.Evaluate(out, ts)
		for i := range rs {
			if ts[i].Latency() {
				rs[i].Retried = true
			} else {
				rs[i] = first[i]
			}
		}
		return rs
	}
}

// printResults writes a run's thresholds, ✓ or ✗ each, and whether an
// abort threshold was breached.
func printResults(rs []threshold.Result) (breached, abort bool) {
	for _, r := range rs {
		fmt.Printf("  %s\n", r.Line())
		if !r.Pass {
			breached = true
			abort = abort || r.Abort
		}
	}
	return breached, abort
}

// checkBaseline compares out with the baseline: regressions are
// breaches, improvements a note.
func checkBaseline(b gate.Baseline, out bench.Outcome) (bool, error) {
	cs, err := b.Compare(out)
	if err != nil {
		return false, badInputf("bench: --check-baseline: %v", err)
	}
	worse := false
	for _, c := range cs {
		if c.Worse() {
			worse = true
			fmt.Printf("  ✗ regressed: %s\n", c)
		} else {
			fmt.Printf("  improved: %s (refresh the baseline with make bench-baseline)\n", c)
		}
	}
	if len(cs) == 0 {
		fmt.Println("  ✓ the baseline's figures, unchanged")
	}
	return worse, nil
}

// breachedErr says why bench exits 99.
func breachedErr(thresholds, baseline []string) error {
	var errs []error
	if len(thresholds) > 0 {
		errs = append(errs, fmt.Errorf("thresholds breached in %s (each report's summary.md and thresholds.xml say which)", strings.Join(thresholds, ", ")))
	}
	if len(baseline) > 0 {
		errs = append(errs, fmt.Errorf("figures regressed from the baseline in %s (listed above; if the change is meant, refresh it with make bench-baseline)", strings.Join(baseline, ", ")))
	}
	return breach{fmt.Errorf("bench: %w", errors.Join(errs...))}
}

// breach is errBreached with what was breached.
type breach struct{ error }

func (breach) Is(target error) bool { return target == errBreached }
