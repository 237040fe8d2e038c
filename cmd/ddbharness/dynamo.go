package main

import (
	"context"
	"errors"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// startDynamo starts (or finds) the run's DynamoDB and says whose fault a
// failure is: a variable the user set that the harness cannot use, or a
// remote endpoint without the opt-in, is bad input (exit 2), refused
// before any request; anything else is the test bed failing (exit 3).
func startDynamo(ctx context.Context, opts ...testbed.Option) (*testbed.Server, error) {
	if _, err := testbed.LoadEnv(); err != nil {
		return nil, badInputf("%v", err)
	}
	srv, err := testbed.Start(ctx, opts...)
	var remote *testbed.RemoteError
	switch {
	case err == nil:
		return srv, nil
	case errors.As(err, &remote):
		return nil, badInputf("%v", err)
	default:
		return nil, testBedFailed(err)
	}
}
