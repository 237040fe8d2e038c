package bench

import (
	"context"

	"github.com/ddbharness/ddbharness/designs"
)

type patternKey struct{}

// WithPattern marks ctx as carrying calls of pattern p, so that the
// instrumented client can attribute what DynamoDB does to the pattern that
// asked. The engine makes one such context per step, not one per call.
func WithPattern(ctx context.Context, p designs.PatternID) context.Context {
	return context.WithValue(ctx, patternKey{}, p)
}

// PatternOf returns the pattern ctx carries, or "" outside a pattern call
// (seeding, for instance).
func PatternOf(ctx context.Context) designs.PatternID {
	p, _ := ctx.Value(patternKey{}).(designs.PatternID)
	return p
}
