package served

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/ddbharness/ddbharness/designs"
)

// IDs of the observer's middlewares in the SDK's stack.
const (
	callID    = "ddbharnessServedCall"
	attemptID = "ddbharnessServedAttempt"
	// retryID is the SDK's retry loop (aws/retry.Attempt): the attempt
	// middleware goes just inside it.
	retryID = "Retry"
)

// Install is an SDK APIOptions function that adds the observer to a
// client's (or one call's) middleware stack:
//
//	dynamodb.New(opts, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, obs.Install) })
//
// The attempt middleware sits in the finalize step right after the SDK's
// Retry middleware, so it runs once per attempt and sees each attempt's
// error as the deserialize step parsed it from DynamoDB's answer, before
// the retryer decides; anything answering in the deserialize step (the
// limits emulator) is inside it too. The call middleware is the first of
// the initialize step, outside the retry loop, and sees the call's final
// outcome. A stack without Retry fails the call: counts that could not
// see retries would pass for right.
func (o *Observer) Install(stack *middleware.Stack) error {
	if err := stack.Initialize.Add(middleware.InitializeMiddlewareFunc(callID, o.final), middleware.Before); err != nil {
		return err
	}
	return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc(attemptID, o.attempt), retryID, middleware.After)
}

type callKey struct{}

// call is one call's attempts so far. Its attempts run one after another
// (the retry loop waits for each), and the call middleware reads it after
// the last, so it needs no lock.
type call struct {
	attempts, throttled int64
	reasons             []reasonKey
}

// final counts one call, keyed by the pattern on its context and its
// operation. The client's own reads (bench/meter's settling reads) stand
// for no call of the design, and are left out as the limits emulator
// leaves them out.
func (o *Observer) final(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	if !o.on.Load() || designs.HarnessCall(ctx) {
		return next.HandleInitialize(ctx, in)
	}
	c := &call{}
	out, md, err := next.HandleInitialize(middleware.WithStackValue(ctx, callKey{}, c), in)
	d := Counts{Calls: 1, Attempts: c.attempts, ThrottledAttempts: c.throttled}
	if throttling(err) != nil {
		d.ThrottledCalls = 1
	}
	k := opKey{designs.PatternOf(ctx), middleware.GetOperationName(ctx)}
	o.mu.Lock()
	o.t.entry(k).add(d)
	for _, r := range c.reasons {
		o.t.reasons[r]++
	}
	o.mu.Unlock()
	return out, md, err
}

// attempt notes one attempt's outcome.
func (o *Observer) attempt(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleFinalize(ctx, in)
	if c, _ := middleware.GetStackValue(ctx, callKey{}).(*call); c != nil {
		c.attempts++
		if rs := throttling(err); rs != nil {
			c.throttled++
			c.reasons = append(c.reasons, rs...)
		}
	}
	return out, md, err
}

// throttles are the exceptions DynamoDB refuses a request with for
// capacity; TransactionCanceledException is one when an action's
// cancellation reason is (designs.CancelledForCapacity).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
var throttles = map[string]bool{
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"RequestLimitExceeded":                   true,
}

// throttling is the reasons err gives for a refusal for capacity, at least
// one; nil when err is no such refusal.
func throttling(err error) []reasonKey {
	if err == nil {
		return nil
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		if !designs.CancelledForCapacity(err) {
			return nil
		}
		var rs []reasonKey
		for _, r := range tce.CancellationReasons {
			if code := aws.ToString(r.Code); code == "ThrottlingError" || code == "ProvisionedThroughputExceeded" {
				rs = append(rs, reasonKey{exception: tce.ErrorCode(), reason: code})
			}
		}
		return rs
	}
	var api smithy.APIError
	if !errors.As(err, &api) || !throttles[api.ErrorCode()] {
		return nil
	}
	name := api.ErrorCode()
	var given []types.ThrottlingReason
	var (
		pte *types.ProvisionedThroughputExceededException
		te  *types.ThrottlingException
		rle *types.RequestLimitExceeded
	)
	switch {
	case errors.As(err, &pte):
		given = pte.ThrottlingReasons
	case errors.As(err, &te):
		given = te.ThrottlingReasons
	case errors.As(err, &rle):
		given = rle.ThrottlingReasons
	}
	if len(given) == 0 {
		return []reasonKey{{exception: name}}
	}
	rs := make([]reasonKey, len(given))
	for i, r := range given {
		rs[i] = reasonKey{name, aws.ToString(r.Reason), aws.ToString(r.Resource)}
	}
	return rs
}
