package bench

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
)

// TestHeldByBackoffOnlyWhenItsWaitsAccountForIt: workers that fell behind
// the pace were held by the SDK's backoff only when it retried and its
// waits took most of their time then; with no retry, or waits that took
// little of it, or waits long before, the test bed could not keep the pace.
func TestHeldByBackoffOnlyWhenItsWaitsAccountForIt(t *testing.T) {
	started := time.Unix(1_800_000_000, 0)
	out := engine.Outcome{Started: started, Workers: 64}
	const at = 5 * time.Second // the call that fell behind was due then
	// waiting is n workers in the backoff from when until the run's end.
	waiting := func(n float64, when time.Duration) func(from, to time.Time) time.Duration {
		return func(from, to time.Time) time.Duration {
			if begun := started.Add(when); from.Before(begun) {
				from = begun
			}
			if !to.After(from) {
				return 0
			}
			return time.Duration(n * float64(to.Sub(from)))
		}
	}
	for _, c := range []struct {
		name    string
		retries int64
		held    func(from, to time.Time) time.Duration
		backoff bool
		share   float64
	}{
		{"no retry", 0, waiting(0, 0), false, 0},
		{"retries whose waits held most workers", 774, waiting(48, 0), true, 0.75},
		{"retries whose waits held few", 774, waiting(4, 0), false, 4.0 / 64},
		{"waits from just before it fell behind", 774, waiting(64, at-500*time.Millisecond), true, 2.0 / 3},
		{"waits only after it fell behind", 774, waiting(64, at+time.Second), false, 0},
	} {
		sat := engine.Saturation{At: at, Rate: 100}
		heldByBackoff(&sat, out, c.retries, c.held)
		if sat.Backoff != c.backoff || sat.Retries != c.retries || sat.BackoffShare < c.share-1e-9 || sat.BackoffShare > c.share+1e-9 {
			t.Errorf("%s: Backoff %t, Retries %d, BackoffShare %.3f; want %t, %d, %.3f", c.name, sat.Backoff, sat.Retries, sat.BackoffShare, c.backoff, c.retries, c.share)
		}
	}
}

// A run that fell behind its pace gives the model no test bed hold: its
// p50 counts the wait for a worker (LIMITS=off lease-rush's transactions
// "held" their item 1.26 s). Its conflict limit stands, on the hold on
// DynamoDB (TestConflictLimitDoesNotMoveWithTheTestBed in bench/capacity).
func TestHoldTimesNotFromARunThatFellBehind(t *testing.T) {
	out := engine.Outcome{Patterns: []engine.PatternMetrics{{Pattern: designs.Pattern{ID: "AP-10"}}}}
	out.Patterns[0].Metrics.Requests, out.Patterns[0].Metrics.Latencies.P50 = 40, 30*time.Millisecond
	if hold, calls := holdTimes(out); hold["AP-10"] != 30*time.Millisecond || calls["AP-10"] != 40 {
		t.Errorf("holdTimes = %v, %v; want AP-10 holding 30ms over 40 calls", hold, calls)
	}
	out.Saturated = &engine.Saturation{At: time.Second}
	if hold, calls := holdTimes(out); len(hold) != 0 || calls["AP-10"] != 40 {
		t.Errorf("holdTimes of a run that fell behind = %v, %v; want no test bed hold, the 40 calls still counted", hold, calls)
	}
}
