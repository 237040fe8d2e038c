package designs

import (
	"context"
)

type patternKey struct{}

// WithPattern marks ctx as carrying calls of pattern p, so that an
// instrumented client (bench/meter) can attribute what DynamoDB does to the
// pattern that asked. The load engine makes one such context per step, not
// one per call.
func WithPattern(ctx context.Context, p PatternID) context.Context {
	return context.WithValue(ctx, patternKey{}, p)
}

// PatternOf returns the pattern ctx carries, or "" outside a pattern call
// (seeding, for instance).
func PatternOf(ctx context.Context) PatternID {
	p, _ := ctx.Value(patternKey{}).(PatternID)
	return p
}

type harnessKey struct{}

// WithHarnessCall marks ctx as carrying a call the harness makes for
// itself, which no pattern made (bench/meter's settling read): what
// emulates DynamoDB's limits, and what counts the service's answers, let
// it through uncounted.
func WithHarnessCall(ctx context.Context) context.Context {
	return context.WithValue(ctx, harnessKey{}, true)
}

// HarnessCall reports whether ctx carries a call of the harness's own.
func HarnessCall(ctx context.Context) bool { return ctx.Value(harnessKey{}) != nil }
