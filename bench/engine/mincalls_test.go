package engine_test

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// twoSteps is a mix of AP-01 and AP-02, 3 to 1, on sleepers of pause.
func twoSteps(pause time.Duration, sc workload.Scenario) workload.Scenario {
	sc = sleeping(pause, sc)
	sc.Design = twoPools
	sc.Mix = []workload.Step{{Pattern: "AP-01", Weight: 3}, {Pattern: "AP-02", Weight: 1}}
	return sc
}

// nthEnd is when the n-th of a pattern's calls ended, from the run's start.
func nthEnd(out ran, pattern string, n int) time.Duration {
	var ends []time.Duration
	for _, r := range out.Results {
		if r.Attack == pattern {
			ends = append(ends, r.Timestamp.Add(r.Latency).Sub(out.Started))
		}
	}
	if len(ends) < n {
		return -1
	}
	slices.Sort(ends)
	return ends[n-1]
}

func TestMinCallsEndsTheWindowWithTheCallsAskedFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 40 calls a second, due every 25 ms from 25 ms, of 10 ms each: a call
		// ends 10 ms after it is due, never at another's due time. The minute
		// only bounds the run.
		out := run(t, twoSteps(10*time.Millisecond, workload.Scenario{Pacer: perSecond(40), Duration: time.Minute}), engine.MinCalls(10))
		first, second := nthEnd(out, "AP-01", 10), nthEnd(out, "AP-02", 10)
		if first < 0 || second < 0 {
			t.Fatalf("%d calls, fewer than 10 of a pattern: the window ended before MinCalls had them", len(out.Results))
		}
		if want := max(first, second); out.Duration != want {
			t.Errorf("window %s, want %s: when the last pattern's 10th call ended", out.Duration, want)
		}
		// Every call due in the window was made, and none due after it.
		due := int(out.Duration / (25 * time.Millisecond))
		if len(out.Results) != due {
			t.Errorf("%d calls, want the %d due by the window's end at %s", len(out.Results), due, out.Duration)
		}
		for _, r := range out.Results {
			if r.Timestamp.Sub(out.Started) >= out.Duration {
				t.Fatalf("a call due at %s, after the window ended at %s", r.Timestamp.Sub(out.Started), out.Duration)
			}
		}
		// The calls the pacer had queued for later were never due: not sent,
		// not counted as such, and the run waits for none of them.
		if out.Unsent != 0 || out.CutOff != 0 || out.Elapsed != out.Duration {
			t.Errorf("%d not sent, %d cut off, measured for %s: want 0, 0 and the window, %s", out.Unsent, out.CutOff, out.Elapsed, out.Duration)
		}
	})
}

func TestMinCallsLeavesTheDurationAsTheBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 1 s at 40 a second makes 39 calls, far from 100 of each pattern.
		out := run(t, twoSteps(10*time.Millisecond, workload.Scenario{Pacer: perSecond(40), Duration: time.Second}), engine.MinCalls(100))
		if out.Duration != time.Second || len(out.Results) != 39 || out.Unsent != 0 {
			t.Errorf("window %s, %d calls, %d not sent: want 1s, 39 and 0", out.Duration, len(out.Results), out.Unsent)
		}
	})
}

func TestMinCallsMetInTheDrainLeavesTheWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 39 calls due by 975 ms, 500 ms each: the 39th ends at 1475 ms, in
		// the drain. The window stays the second asked for.
		out := run(t, sleeping(500*time.Millisecond, workload.Scenario{Pacer: perSecond(40), Duration: time.Second}), engine.MinCalls(39))
		if out.Duration != time.Second || out.Elapsed != 1475*time.Millisecond || len(out.Results) != 39 {
			t.Errorf("window %s, measured for %s, %d calls: want 1s, 1.475s and 39", out.Duration, out.Elapsed, len(out.Results))
		}
	})
}

func TestMinCallsEndsAClosedLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One worker calling back to back, 10 ms a call: the window ends with
		// a call, and the worker starts no other.
		out := run(t, twoSteps(10*time.Millisecond, workload.Scenario{Pacer: perSecond(0), Duration: time.Minute}),
			engine.Workers(1), engine.MinCalls(5))
		if want := max(nthEnd(out, "AP-01", 5), nthEnd(out, "AP-02", 5)); want < 0 || out.Duration != want || out.Elapsed != want {
			t.Errorf("window %s, measured for %s, want both %s: when the last pattern's 5th call ended", out.Duration, out.Elapsed, want)
		}
	})
}

func TestMinCallsRefusedWhereItCannotHold(t *testing.T) {
	for name, opts := range map[string][]engine.Option{
		"a negative count": {engine.MinCalls(-1)},
		"a sharded run":    {engine.MinCalls(10), engine.Shard(engine.ShardSpec{I: 1, N: 2, Run: "spread"})},
	} {
		db := newFakeDB()
		sc := sleeping(0, workload.Scenario{Pacer: perSecond(1), Duration: time.Second})
		_, err := engine.Run(t.Context(), db, sc, append(opts, quiet)...)
		if !errors.Is(err, designs.ErrInvalidInput) || db.tableCount() != 0 {
			t.Errorf("%s: error %v with %d tables, want invalid input before any table", name, err, db.tableCount())
		}
	}
}
