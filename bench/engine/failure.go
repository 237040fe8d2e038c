package engine

import (
	"errors"
	"time"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// Failure is why a run stopped before its end for a reason of the test
// bed, not of the design: the service it measures exited, or calls failed
// for infrastructure reasons (connection refused, 5xx, timeouts) beyond
// InfraFailureShare. Figures from after At are not the design's.
type Failure struct {
	// At is since measuring began. A failure before measuring (Phase says
	// which) has At ≤ 0: how long before the point where Run gave up.
	At     time.Duration
	Time   time.Time // when it was seen, on the wall clock
	Phase  string    // what the run was doing: PhaseCreate, PhaseSeed, PhaseWarmup or PhaseMeasure
	Reason string    // what happened, for people
	Logs   string    // the service's last log lines, when known
}

// The phases of a run, as Failure.Phase names them.
const (
	PhaseCreate  = "creating the table"
	PhaseSeed    = "seeding"
	PhaseWarmup  = "warming up"
	PhaseMeasure = "measuring"
)

// Saturation is the test bed falling behind the pace while measuring: the
// server (DynamoDB Local past its knee, or the machine under it) stalled
// or could not keep up, so latencies from At on are the test bed's, not
// the design's. The run goes on; the first time it is seen is kept.
type Saturation struct {
	At     time.Duration // since measuring began
	Rate   float64       // calls a second the pacer asked for then (achieved, for an unpaced run)
	Reason string        // what was seen, for people
	// Backoff says the workers were held by the SDK's retry backoff after
	// throttling (set by whoever throttled the run): the latencies are the
	// design's under its limits, not the test bed's. Retries and
	// BackoffShare are what it is decided on: the SDK's retries over the
	// run, and the share of the workers' time its backoff took around At.
	Backoff      bool
	Retries      int64
	BackoffShare float64
}

// Thresholds of the test bed's health.
const (
	// InfraFailureShare is the share of calls ending in the last
	// InfraFailureWindow that may fail for infrastructure reasons before
	// the run stops. Real DynamoDB's server errors are far rarer than
	// this; a test bed failing a fifth of its calls measures itself, and a
	// few stray errors stay results.
	InfraFailureShare = 0.2
	// InfraFailureMinCalls is how many calls must end in the window for
	// the share to count: one failed call out of two is not a trend.
	InfraFailureMinCalls = 5
	// InfraFailureWindow is the window of the share: short, so a dead
	// endpoint stops the run within about a second.
	InfraFailureWindow = time.Second
	// InfraFailureStreak stops a run whose every call has failed for
	// infrastructure reasons for this long, for rates too low to reach
	// InfraFailureMinCalls in a window.
	InfraFailureStreak = 2 * time.Second
	// SaturationWait is how long a due call may wait for a free worker
	// before the test bed counts as saturated: every worker was busy with
	// calls the server had not answered, for far longer than scheduling
	// jitter.
	SaturationWait = 500 * time.Millisecond
	// StallAfter is how long no call may end, with calls in flight, before
	// the test bed counts as stalled (DynamoDB Local past its knee can
	// stall for a minute).
	StallAfter = 2 * time.Second
	// FailedCleanup bounds deleting the table after the test bed failed:
	// a dead endpoint must not hold the run up.
	FailedCleanup = 3 * time.Second
	// watchGrace is how long a phase that failed with an infrastructure
	// error waits for the watched service to say it exited, so the
	// Failure gives the cause (its exit and last lines), not the symptom.
	watchGrace = time.Second
)

// Watch has Run stop promptly, with Outcome.Failure set, when done closes;
// cause says what happened (its error text becomes Failure.Reason; a
// *testbed.ExitError gives Reason and Logs apart). Pass an embedded
// DynamoDB Local's Done and Exit.
func Watch(done <-chan struct{}, cause func() error) Option {
	return func(c *config) { c.watch, c.watchCause = done, cause }
}

// exited is the Failure's reason and logs for a watched service that exited.
func exited(cause func() error) (reason, logs string) {
	var err error
	if cause != nil {
		err = cause()
	}
	var exit *testbed.ExitError
	switch {
	case errors.As(err, &exit):
		return (&testbed.ExitError{Endpoint: exit.Endpoint, At: exit.At, State: exit.State}).Error(), exit.Logs
	case err != nil:
		return err.Error(), ""
	}
	return "the DynamoDB endpoint's server exited", ""
}
