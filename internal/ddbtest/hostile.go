package ddbtest

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// Faults is a suite process's endpoint of fault rules, under hostile
// verify (testbed.EnvHostile): the patterns' client reaches DynamoDB
// through it.
type Faults struct {
	Endpoint string        // where the patterns' client sends its calls
	Quiet    func()        // no rules: a spec's setup
	Aim      func()        // the profile, its counts from zero: a spec's body
	Fired    func() string // the rules that fired since Aim, one a line
	// Status is each rule's counts since Aim (matched, hits), as the
	// spec's report keeps them under RulesEntry for verify's reach gate.
	Status func() any
	Close  func()
}

// RulesEntry names the report entry each spec leaves under hostile
// verify: every rule of the profile with the calls of the spec's body it
// matched and fired on. Verify reads it back from the suite's JSON report
// to tell, per pattern, which operations its calls make and which of
// their faults they met.
const RulesEntry = "hostile rules"

// Hostile starts a process's Faults in front of local, DynamoDB, with the
// fault seed verify gave. internal/hostile sets it; a design suite imports
// that package for it, and hostile verify fails a suite that does not.
var Hostile func(local, seed string) (*Faults, error)

// hostile wires env's patterns through Faults when the run is hostile:
// called in each process once its DynamoDB is known. It returns nil on a
// quiet run.
func hostile(local string) *Faults {
	env, _ := testbed.LoadEnv()
	if env.Hostile == "" {
		return nil
	}
	if Hostile == nil {
		Fail("hostile verify: this suite does not import github.com/ddbharness/ddbharness/internal/hostile, " +
			"which puts the fault rules between its patterns and DynamoDB: add it to the suite file's imports as _")
	}
	f, err := Hostile(local, env.Hostile)
	if err != nil {
		Fail("hostile verify: " + err.Error())
	}
	DeferCleanup(f.Close)
	return f
}

// hostileRetries is the patterns' retryer under hostile verify: the SDK's
// standard three attempts with QuickRetries' 1 ms backoff, so that a spec
// meeting its faults does not wait seconds, and no retry quota: one
// client meets every spec's faults, far more of them in a minute than a
// client in production meets, and would run out of a quota a production
// client keeps.
func hostileRetries(o *dynamodb.Options) {
	o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
		so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return time.Millisecond, nil })
		so.RateLimiter = ratelimit.None
	})
}

// registerHostile aims e's faults at each spec's body, after its setup
// ran quiet, and names the rules that fired when the spec fails.
func registerHostile(e *Env) {
	BeforeEach(func() {
		if e.faults != nil {
			e.faults.Quiet()
		}
	})
	JustBeforeEach(func() {
		if e.faults != nil {
			e.faults.Aim()
		}
	})
	AfterEach(func() {
		if e.faults == nil {
			return
		}
		fired := e.faults.Fired()
		AddReportEntry(RulesEntry, e.faults.Status(), ReportEntryVisibilityNever)
		e.faults.Quiet() // the spec's cleanup reads and deletes as on a quiet DynamoDB
		if CurrentSpecReport().Failed() {
			AddReportEntry("hostile faults the spec's body met", fired)
			GinkgoWriter.Printf("hostile verify: the spec's body met these faults:\n%s\n", fired)
		}
	})
}

// Faulted reports whether err is an answer a pattern may give under
// hostile verify in place of its quiet answer: an error its caller can
// act on by retrying (a throttle, a 500 or 503, a connection reset the
// SDK gave up on, a transaction conflict past the design's retries, a
// transaction cancelled for throttling). On a
// quiet run it is always false, so the spec checks the quiet answer. A
// spec names its invariant once and checks it either way:
//
//	err := table.UpdateClient(ctx, c)
//	if !env.Faulted(err) {
//		Expect(err).NotTo(HaveOccurred())
//	}
//	// the invariant: the client is as it was, or as updated, never half
//
// A domain outcome (not found, taken, refused, invalid) is never a
// fault: a design that turns a throttle into one fails its spec.
func (e *Env) Faulted(err error) bool {
	if e.faults == nil || err == nil {
		return false
	}
	for _, outcome := range []error{designs.ErrInvalidInput, designs.ErrNotFound, designs.ErrAlreadyExists, designs.ErrRefused} {
		if errors.Is(err, outcome) {
			return false
		}
	}
	// A conflict past the design's retries is its typed ErrConflict; one
	// handed back raw was never retried, and is no fault's answer.
	if errors.Is(err, designs.ErrTransactionConflict) || designs.CancelledForCapacity(err) {
		return true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	return retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary
}
