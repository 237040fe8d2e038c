package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// errTestBed is the cause of a run cancelled because the test bed failed.
var errTestBed = errors.New("the test bed failed")

// bed watches the test bed through a run: a watched service exiting or
// calls failing for infrastructure reasons stop the run (the first failure
// is kept); falling behind the pace is noted and the run goes on.
type bed struct {
	stop      context.CancelCauseFunc
	cut       func(time.Time) // the Measurer's Cut, when the run has a Measurer
	watch     <-chan struct{}
	cause     func() error
	mu        sync.Mutex
	phase     string
	failure   *Failure
	saturated *Saturation
	sat       atomic.Bool // saturated is set: later notes need no lock and no message
	infra     infraWindow
}

func newBed(cfg config, stop context.CancelCauseFunc) *bed {
	b := &bed{stop: stop, watch: cfg.watch, cause: cfg.watchCause, phase: PhaseCreate}
	if cfg.measurer != nil {
		b.cut = cfg.measurer.Cut
	}
	return b
}

// watching fails the run when the watched service exits, until run ends.
func (b *bed) watching(run context.Context) {
	if b.watch == nil {
		return
	}
	go func() {
		select {
		case <-b.watch:
			reason, logs := exited(b.cause)
			b.fail(time.Now(), reason, logs)
		case <-run.Done():
		}
	}()
}

func (b *bed) enter(phase string) {
	b.mu.Lock()
	b.phase = phase
	b.mu.Unlock()
}

// fail records the run's failure, unless one is recorded already, and
// stops the run.
func (b *bed) fail(at time.Time, reason, logs string) {
	if !b.record(at, reason, logs) {
		return
	}
	if b.cut != nil {
		b.cut(at)
	}
	b.stop(errTestBed)
}

// record keeps the run's failure, the first one only, without stopping
// anything: for a failure found once the run has ended. It reports whether
// this one was kept.
func (b *bed) record(at time.Time, reason, logs string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failure != nil {
		return false
	}
	b.failure = &Failure{Time: at, Phase: b.phase, Reason: reason, Logs: logs}
	return true
}

func (b *bed) failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failure != nil
}

// ended turns the error that ended a phase (creating the table, seeding)
// into the test bed's failure when it is one, and says whether it was. An
// infrastructure error waits a moment for a watched service to say it
// exited: its exit and last lines are the cause, the error the symptom.
func (b *bed) ended(err error) bool {
	if b.failed() {
		return true
	}
	cause, ok := Infrastructure(err)
	if !ok {
		return false
	}
	if b.watch != nil {
		grace := time.NewTimer(watchGrace)
		defer grace.Stop()
		select {
		case <-b.watch:
			reason, logs := exited(b.cause)
			b.fail(time.Now(), reason, logs)
			return true
		case <-grace.C:
		}
	}
	b.fail(time.Now(), fmt.Sprintf("%s: %v", cause, err), "")
	return true
}

// callEnded counts a finished call, not one the run cut short, towards the
// share of infrastructure failures, and fails the run past it.
func (b *bed) callEnded(now time.Time, err error, code uint16) {
	cause, infra := infrastructure(err, code)
	b.mu.Lock()
	reason, over := b.infra.add(now, cause, infra, err)
	b.mu.Unlock()
	if over {
		b.fail(now, reason, "")
	}
}

// saturate notes the first time the test bed fell behind while measuring;
// reason is built only then, not for each call that falls behind after it.
func (b *bed) saturate(at time.Duration, rate float64, reason func() string) {
	if b.sat.Load() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.saturated == nil {
		b.saturated = &Saturation{At: at, Rate: rate, Reason: reason()}
		b.sat.Store(true)
	}
}

// finish puts what the bed saw into out; started is when measuring began
// (zero if it never did).
func (b *bed) finish(out *Outcome, started time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out.Saturated = b.saturated
	if b.failure == nil {
		return
	}
	f := *b.failure
	if started.IsZero() {
		f.At = min(f.Time.Sub(time.Now()), 0) // before the point where Run gave up
	} else {
		f.At = f.Time.Sub(started)
	}
	out.Failure = &f
}

// infraWindow counts the calls that ended, and those that failed for
// infrastructure reasons, over the last InfraFailureWindow, and how long
// every call has failed so.
type infraWindow struct {
	ends   []callEnd // the calls that ended in the window, oldest first
	failed int       // how many of them failed so
	streak time.Time // when the current unbroken run of infrastructure failures began
	cause  string    // the latest failure's cause
	last   error     // and its error
}

type callEnd struct {
	at    int64 // Unix nanoseconds
	infra bool
}

// add counts one call that ended at now, and says whether the test bed has
// failed: more than InfraFailureShare of at least InfraFailureMinCalls
// calls in the window, or every call for InfraFailureStreak.
func (w *infraWindow) add(now time.Time, cause string, infra bool, err error) (reason string, over bool) {
	old, from := 0, now.Add(-InfraFailureWindow).UnixNano()
	for old < len(w.ends) && w.ends[old].at <= from {
		if w.ends[old].infra {
			w.failed--
		}
		old++
	}
	w.ends = append(w.ends[old:], callEnd{now.UnixNano(), infra})
	if !infra {
		w.streak = time.Time{}
		return "", false
	}
	w.failed++
	w.cause, w.last = cause, err
	if w.streak.IsZero() {
		w.streak = now
	}
	switch calls := len(w.ends); {
	case calls >= InfraFailureMinCalls && float64(w.failed) > InfraFailureShare*float64(calls):
		return fmt.Sprintf("%d of %d calls in the last %s failed for reasons of the test bed, not the design: %s (the last: %v)",
			w.failed, calls, InfraFailureWindow, w.cause, w.last), true
	case now.Sub(w.streak) >= InfraFailureStreak:
		return fmt.Sprintf("every call for %s failed for reasons of the test bed, not the design: %s (the last: %v)",
			now.Sub(w.streak).Round(time.Millisecond), w.cause, w.last), true
	}
	return "", false
}
