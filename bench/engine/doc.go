// Package engine paces a load scenario against a design's access patterns
// and measures every call's latency and outcome as a vegeta Result: an
// open-loop pacer (vegeta's), a bounded pool of workers, per-second
// progress, and each call written to a results file as it ends. What a call costs on
// DynamoDB is not its business: a Measurer (bench's instrumented client and
// capacity ledger) wraps the client the driver calls, and is told when the
// measured phase starts and stops. It never imports a concrete design:
// scenarios bring a workload.Driver that calls the design's functions.
package engine
