// Package throughput is DynamoDB's throughput rules as one engine: the
// partitions of a table or GSI and where each partition key value lands,
// a token bucket per partition and side, a provisioned budget with its
// burst, an on-demand table's warm throughput and its growth up to the
// account quota or its maximum throughput, and the isolation of a hot value on a partition of its
// own (split for heat). It is pure: no SDK, no clock of its own (times are
// Unix nanoseconds the caller passes), no report.
//
// Two callers drive it. bench/emulate decides every attempt of a live run
// with it, from the SDK's middleware; bench/capacity replays a run's
// ledger through it, second by second, so the forecast and the emulator
// refuse by the same rules. Each rule's figure is a constant in
// ddbitem/quotas.go with its source beside it; what AWS does not publish
// is marked inferred where it is applied.
package throughput

// The two sides of throughput, throttled apart on a partition.
const (
	Read  = 0
	Write = 1
)
