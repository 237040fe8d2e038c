package engine_test

// The engine's timing runs here on an injected clock: each test runs in a
// testing/synctest bubble, whose clock moves only when every goroutine of
// the run (pacer, workers, drivers, progress and stall tickers, timers) is
// blocked, and then straight to the next timer. Latencies, due times and
// the moments a run stops are then exact, however busy the machine is.

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/workload"
)

var quiet = engine.Progress(io.Discard)

// perSecond is a constant pacer of n calls a second.
func perSecond(n int) vegeta.Pacer { return vegeta.ConstantPacer{Freq: n, Per: time.Second} }

// ran is a run's outcome with its calls read back from its results file.
type ran struct {
	engine.Outcome
	Results vegeta.Results // in order of intended time
}

// run runs sc on a fake database inside the bubble.
func run(t *testing.T, sc workload.Scenario, opts ...engine.Option) ran {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.bin")
	out, err := engine.Run(t.Context(), newFakeDB(), sc, append([]engine.Option{engine.Warmup(0), quiet, engine.ResultsTo(path)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if out.ResultsErr != nil {
		t.Fatal(out.ResultsErr)
	}
	return ran{Outcome: out, Results: readResults(t, path)}
}

// readResults reads a results file back in order of intended time, and
// checks that each pattern's calls are numbered in that order.
func readResults(t testing.TB, path string) vegeta.Results {
	t.Helper()
	var rs vegeta.Results
	if err := engine.ReadResults(path, func(r *vegeta.Result) error { rs = append(rs, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rs, func(a, b vegeta.Result) int {
		return cmp.Or(a.Timestamp.Compare(b.Timestamp), cmp.Compare(a.Seq, b.Seq))
	})
	next := map[string]uint64{}
	for _, r := range rs {
		if n, seen := next[r.Attack]; seen && r.Seq < n {
			t.Fatalf("%s call %d due at %s after call %d: want numbers in order of due time", r.Attack, r.Seq, r.Timestamp, n-1)
		}
		next[r.Attack] = r.Seq + 1
	}
	return rs
}

// scripted is a driver whose calls do what call says; n counts from 1.
type scripted struct {
	seed func(ctx context.Context) error
	call func(ctx context.Context, n int64) error
	n    atomic.Int64
}

func (s *scripted) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	if s.seed != nil {
		return s.seed(ctx)
	}
	progress(n, n)
	return nil
}

func (s *scripted) Call(ctx context.Context, _ designs.PatternID, _ int, _ *rand.Rand) error {
	return s.call(ctx, s.n.Add(1))
}

// scriptedScenario runs d at pacer for duration.
func scriptedScenario(d *scripted, pacer vegeta.Pacer, duration time.Duration) workload.Scenario {
	sc := sleeping(0, workload.Scenario{Pacer: pacer, Duration: duration})
	sc.Driver = func(designs.DB, string, int64) workload.Driver { return d }
	return sc
}

// pause takes d of the bubble's clock, or less if ctx ends first.
func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var refused = fmt.Errorf("operation error DynamoDB: GetItem: %w",
	&net.OpError{Op: "dial", Net: "tcp", Err: &net.OpError{Op: "connect", Err: syscall.ECONNREFUSED}})

func TestLatencyCountsFromTheDueTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One worker, calls due every 50 ms from 50 ms, each taking 100 ms:
		// call i starts at 50+100i ms, ends at 150+100i, so its latency is
		// 100+50i ms, the wait for the worker included.
		out := run(t, sleeping(100*time.Millisecond, workload.Scenario{Pacer: perSecond(20), Duration: time.Second}), engine.Workers(1))
		if len(out.Results) != 19 {
			t.Fatalf("%d results, want the 19 calls due before 1 s", len(out.Results))
		}
		for i, r := range out.Results {
			if want := 100*time.Millisecond + time.Duration(i)*50*time.Millisecond; r.Latency != want {
				t.Errorf("call %d: latency %s, want %s", i, r.Latency, want)
			}
		}

		// Call i waits 50i ms for the worker: call 11, due at 600 ms, is the
		// first to wait longer than SaturationWait.
		s := out.Saturated
		if s == nil {
			t.Fatal("no saturation recorded, though calls waited up to 900 ms for the worker")
		}
		if s.At != 600*time.Millisecond || s.Rate != 20 || !strings.Contains(s.Reason, "waited 550ms for one of the 1 workers") {
			t.Errorf("saturation %+v, want at 600ms, rate 20, the call waiting 550ms for one of the 1 workers", *s)
		}
		if out.Failure != nil {
			t.Errorf("failure %+v: a saturated test bed is no failure", *out.Failure)
		}
	})
}

func TestNoSaturationWhenTheServerKeepsUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		out := run(t, sleeping(100*time.Millisecond, workload.Scenario{Pacer: perSecond(20), Duration: time.Second}), engine.Workers(4))
		if out.Saturated != nil {
			t.Errorf("saturation %+v, though 4 workers keep up with calls of 100 ms due every 50 ms", *out.Saturated)
		}
		if len(out.Results) != 19 || out.Results[18].Latency != 100*time.Millisecond {
			t.Errorf("%d results, the last taking %s: want 19, each 100ms", len(out.Results), out.Results[len(out.Results)-1].Latency)
		}
	})
}

func TestAStallIsSaturation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 20 calls a second of 10 ms each, until the server stalls: from the
		// 21st call (due at 1050 ms) on, every call takes 5 s.
		d := &scripted{call: func(ctx context.Context, n int64) error {
			if n > 20 {
				return pause(ctx, 5*time.Second)
			}
			return pause(ctx, 10*time.Millisecond)
		}}
		out := run(t, scriptedScenario(d, perSecond(20), 4*time.Second))
		s := out.Saturated
		if s == nil {
			t.Fatal("no saturation recorded, though no call ended for 5 s")
		}
		// The 20th call, due at 1000 ms, is the last to end, at 1010 ms.
		if s.At != 1010*time.Millisecond || s.Rate != 20 || !strings.Contains(s.Reason, "no call ended for") {
			t.Errorf("saturation %+v, want at 1010ms, rate 20, no call ended", *s)
		}
	})
}

func TestSendsTheCallsThePacerAsksFor(t *testing.T) {
	tests := []struct {
		name  string
		pacer vegeta.Pacer
		d     time.Duration
		want  int
	}{
		{"a constant 50 a second for 1 s, due from 20 ms to 980 ms", perSecond(50), time.Second, 49},
		{"a ramp from 10 a second, 20 more each second, for 2 s: 10·2 + 20·2²/2", vegeta.LinearPacer{
			StartAt: vegeta.Rate{Freq: 10, Per: time.Second}, Slope: 20}, 2 * time.Second, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				out := run(t, sleeping(0, workload.Scenario{Pacer: tt.pacer, Duration: tt.d}))
				if n := len(out.Results); n < tt.want-1 || n > tt.want+1 {
					t.Errorf("%d calls, want %d±1", n, tt.want)
				}
				for _, r := range out.Results {
					if r.Latency != 0 {
						t.Fatalf("a call of no time took %s: it was not sent when due", r.Latency)
					}
					if due := r.Timestamp.Sub(out.Started); due < 0 || due >= tt.d {
						t.Fatalf("a call due at %s, outside the run's %s", due, tt.d)
					}
				}
				if last := out.Results[len(out.Results)-1].Timestamp.Sub(out.Started); out.Elapsed != last {
					t.Errorf("measuring took %s, want %s: it ends with its last call, which takes no time", out.Elapsed, last)
				}
			})
		})
	}
}

func TestCallsStillWaitingAfterTheDrainAreNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// As in TestLatencyCountsFromTheDueTime, call i ends at 150+100i ms;
		// the run is cut at 1 s + 200 ms of drain: calls 0 to 10 end, call 11
		// is cut short under way (counted apart, not as an error of the
		// design's), calls 12 to 18 are never sent.
		out := run(t, sleeping(100*time.Millisecond, workload.Scenario{Pacer: perSecond(20), Duration: time.Second}),
			engine.Workers(1), engine.Drain(200*time.Millisecond))
		if len(out.Results) != 11 || out.CutOff != 1 || out.Unsent != 7 {
			t.Errorf("%d results, %d cut off and %d not sent, want 11, 1 and 7", len(out.Results), out.CutOff, out.Unsent)
		}
		for _, r := range out.Results {
			if r.Error != "" {
				t.Errorf("a call recorded as %q: the drain's cut is not the design's error", r.Error)
			}
		}
		if out.Elapsed != 1200*time.Millisecond {
			t.Errorf("the run took %s, want 1.2s: its duration and the drain", out.Elapsed)
		}
	})
}

func TestCallsBackToBackWithoutARate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Two workers, calls of 10 ms, 300 ms: each worker starts a call at
		// 0, 10, …, 290 ms.
		out := run(t, sleeping(10*time.Millisecond, workload.Scenario{Pacer: vegeta.ConstantPacer{}, Duration: 300 * time.Millisecond}),
			engine.Workers(2))
		if len(out.Results) != 60 {
			t.Errorf("%d calls, want 2 workers × 300 ms / 10 ms = 60", len(out.Results))
		}
	})
}

// watched closes done after d; cause says how the service exited.
func watched(d time.Duration) (engine.Option, *time.Time) {
	done := make(chan struct{})
	closed := new(time.Time)
	time.AfterFunc(d, func() {
		*closed = time.Now()
		close(done)
	})
	return engine.Watch(done, func() error {
		return &testbed.ExitError{Endpoint: "http://127.0.0.1:1", At: *closed, State: "signal: killed", Logs: "line one\nline two\n"}
	}), closed
}

func TestWatchStopsTheRunWhenTheServiceExitsWhileMeasuring(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The exit falls 5 ms after a call ends, never at the same fake
		// instant: which of two events at one instant runs first is the
		// scheduler's choice, not the engine's.
		watch, closed := watched(2505 * time.Millisecond)
		began := time.Now()
		out := run(t, sleeping(30*time.Millisecond, workload.Scenario{Pacer: perSecond(100), Duration: time.Minute}),
			watch, engine.Warmup(time.Second))
		f := out.Failure
		if f == nil {
			t.Fatal("no failure, though the watched service exited")
		}
		// The warm-up ends with its last call, due at 990 ms, at 1020 ms.
		if want := closed.Sub(out.Started); f.At != want || f.At != 1485*time.Millisecond {
			t.Errorf("failure at %s, want %s: 2.505 s after the run began, 1.02 s of it warming up", f.At, want)
		}
		if f.Phase != engine.PhaseMeasure || !strings.Contains(f.Reason, "signal: killed") || strings.Contains(f.Reason, "line one") ||
			f.Logs != "line one\nline two\n" {
			t.Errorf("failure %+v, want while measuring, the exit as the reason and its last lines apart", *f)
		}
		// Stopping waits for no drain and no call under way.
		if took := time.Since(began); took != 2505*time.Millisecond {
			t.Errorf("the run took %s, want it to end when the service exited, at 2.505s", took)
		}
		if out.Elapsed != f.At || out.Interrupted {
			t.Errorf("measured for %s (interrupted %v), want %s, not interrupted", out.Elapsed, out.Interrupted, f.At)
		}
		// Calls due every 10 ms from 10 ms on, each 30 ms: those due up to
		// 1450 ms ended by 1480; those under way at 1485 were cut and dropped.
		if len(out.Results) != 145 {
			t.Errorf("%d results, want the 145 that ended before the failure", len(out.Results))
		}
	})
}

func TestWatchStopsTheRunWhenTheServiceExitsWhileSeeding(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		watch, _ := watched(2 * time.Second)
		// A seed that hangs on a server that no longer answers.
		d := &scripted{seed: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
			call: func(context.Context, int64) error { return nil }}
		began := time.Now()
		out := run(t, scriptedScenario(d, perSecond(100), time.Minute), watch)
		f := out.Failure
		if f == nil || f.Phase != engine.PhaseSeed || f.At > 0 || f.Logs == "" {
			t.Fatalf("failure %+v, want one while seeding, before measuring, with the service's last lines", f)
		}
		if took := time.Since(began); took != 2*time.Second {
			t.Errorf("the run took %s, want it to end when the service exited, at 2s", took)
		}
		if !out.Started.IsZero() || len(out.Results) != 0 || d.n.Load() != 0 {
			t.Errorf("measuring began at %s with %d results: want none after a failed seed", out.Started, len(out.Results))
		}
	})
}

func TestAFailedSeedWaitsBrieflyForTheWatchToGiveTheCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The seed's call sees the connection refused 300 ms before the
		// watch sees the process gone: the exit is the cause.
		watch, _ := watched(300 * time.Millisecond)
		d := &scripted{seed: func(context.Context) error { return refused }, call: func(context.Context, int64) error { return nil }}
		out := run(t, scriptedScenario(d, perSecond(100), time.Minute), watch)
		if f := out.Failure; f == nil || !strings.Contains(f.Reason, "signal: killed") || f.Logs == "" {
			t.Errorf("failure %+v, want the service's exit and last lines", f)
		}
	})
}

func TestAFailedSeedOnABrokenEndpointIsTheTestBedFailing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &scripted{seed: func(context.Context) error { return refused }, call: func(context.Context, int64) error { return nil }}
		began := time.Now()
		out := run(t, scriptedScenario(d, perSecond(100), time.Minute))
		if f := out.Failure; f == nil || f.Phase != engine.PhaseSeed || !strings.Contains(f.Reason, "connection refused") {
			t.Errorf("failure %+v, want connection refused while seeding", f)
		}
		if took := time.Since(began); took != 0 {
			t.Errorf("with nothing to watch, the run waited %s before failing", took)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		// A design's own error while seeding stays an error of the run.
		d := &scripted{seed: func(context.Context) error { return designs.ErrConflict }, call: func(context.Context, int64) error { return nil }}
		_, err := engine.Run(t.Context(), newFakeDB(), scriptedScenario(d, perSecond(100), time.Minute), quiet)
		if err == nil || !strings.Contains(err.Error(), "seed: changed concurrently") {
			t.Errorf("error %v, want the seed's own", err)
		}
	})
}

func TestInfrastructureFailuresBeyondTheShareStopTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 100 calls a second; from 2 s on (call 201) every call is refused.
		// The window then holds 100 calls: the 21st refused one, due at
		// 2.21 s, makes more than a fifth.
		d := &scripted{call: func(_ context.Context, n int64) error {
			if n > 200 {
				return refused
			}
			return nil
		}}
		out := run(t, scriptedScenario(d, perSecond(100), time.Minute))
		f := out.Failure
		if f == nil {
			t.Fatal("no failure, though every call was refused")
		}
		if f.At != 2210*time.Millisecond || out.Elapsed != f.At {
			t.Errorf("failure at %s, measuring for %s: want both 2.21s", f.At, out.Elapsed)
		}
		if !strings.Contains(f.Reason, "21 of 100 calls in the last 1s failed") || !strings.Contains(f.Reason, "connection refused") {
			t.Errorf("reason %q, want the share and the cause", f.Reason)
		}
	})
}

func TestEveryCallFailingStopsASlowRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One call a second, every one refused: too few for the share, but
		// from the first (at 1 s) to the third (at 3 s) is InfraFailureStreak.
		d := &scripted{call: func(context.Context, int64) error { return refused }}
		out := run(t, scriptedScenario(d, perSecond(1), time.Minute))
		if f := out.Failure; f == nil || f.At != 3*time.Second || !strings.Contains(f.Reason, "every call for 2s failed") {
			t.Errorf("failure %+v, want every call for 2s failing, at 3s", f)
		}
	})
}

func TestDomainOutcomesAndThrottlingAreResults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		throttled := &types.ProvisionedThroughputExceededException{}
		d := &scripted{call: func(_ context.Context, n int64) error {
			switch n % 3 {
			case 0:
				return designs.ErrConflict
			case 1:
				return throttled
			}
			return designs.Refusal("out of stock")
		}}
		out := run(t, scriptedScenario(d, perSecond(100), 3*time.Second))
		if out.Failure != nil || len(out.Results) != 299 {
			t.Errorf("failure %v after %d calls, want none after all 299", out.Failure, len(out.Results))
		}
	})
}

func TestInfrastructureFailuresWhileWarmingUpStopTheRunBeforeMeasuring(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &scripted{call: func(context.Context, int64) error { return refused }}
		out := run(t, scriptedScenario(d, perSecond(100), time.Minute), engine.Warmup(3*time.Second))
		if f := out.Failure; f == nil || f.Phase != engine.PhaseWarmup || f.At > 0 {
			t.Fatalf("failure %+v, want one while warming up, before measuring", f)
		}
		// Five refused calls, due every 10 ms from 10 ms, make the share.
		if !out.Started.IsZero() || len(out.Results) != 0 || d.n.Load() != 5 {
			t.Errorf("measuring began at %s with %d results after %d calls: want no measuring after 5 calls", out.Started, len(out.Results), d.n.Load())
		}
	})
}
