// Package hostile is verify's hostile mode (ddbharness verify --hostile,
// make verify HOSTILE=1): in each design suite's process, an endpoint of
// fault rules (bench/endpoint) between the suite's patterns and DynamoDB,
// quiet while a spec sets up and aimed with the standard profile for the
// spec's body, so that each pattern meets production's failures and its
// spec proves it still returns what a quiet DynamoDB would, or an error a
// caller can act on. A design suite imports it for its side effect, which
// gives internal/ddbtest the endpoint (ddbtest.Hostile).
package hostile
