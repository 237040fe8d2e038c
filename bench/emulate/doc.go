// Package emulate is the limits emulator: the mechanism that applies the
// limits a run is under (bench.Limits, local --limits) to its calls. It
// throttles DynamoDB calls the way real DynamoDB does, on any endpoint
// (DynamoDB Local never throttles): partition by partition, on the
// capacity rules bench's report uses, with the errors AWS answers, so that
// the SDK's own retryer, a batch's unprocessed items and a transaction
// cancelled for throttling show before production.
//
// An Emulator is installed on an SDK client as middleware (Install): before
// each attempt it decides, from the partitions the request touches, whether
// DynamoDB would serve it, and answers a refusal as DynamoDB does (HTTP 400
// with the exception and its ThrottlingReasons), so the SDK parses and
// retries it as it would AWS's. What each call consumed is debited when it
// completes (Debit, fed by bench's instrumented client with the charges
// bench/capacity computes), so a partition can go into debt as on DynamoDB.
//
// The model, its sources and where it approximates:
//   - Each table and each GSI is a set of partitions, as many as its
//     throughput (provisioned, or an on-demand table's warm throughput) and
//     its data need; partition key values are placed by a hash. Each
//     partition serves 3,000 read and 1,000 write units per second, reads
//     and writes throttled apart.
//   - A partition that stays hot isolates its hottest partition key value
//     on a partition of its own (split for heat). AWS publishes no delay:
//     IsolateAfter is inferred. A value's traffic never passes one
//     partition's limit here, which AWS guarantees for a single item and
//     for a collection an LSI pins; splitting a collection by sort key is
//     not emulated, so a hot value spread over many items throttles sooner
//     than on AWS after a long run.
//   - A provisioned table and each GSI have their own budget at the
//     provisioned rate with 300 s of burst; adaptive capacity lets any
//     partition use what the table leaves unused, up to the partition
//     limit. An on-demand table and each GSI serve their warm throughput,
//     twice their peak once it is 30 minutes old, up to the table quota
//     and their maximum throughput (Config.MaxReads, MaxWrites).
//   - A refusal answers the exception of the table's billing mode:
//     ProvisionedThroughputExceededException on a provisioned table,
//     ThrottlingException on an on-demand one, RequestLimitExceeded at the
//     account's table quota.
//   - A write whose GSI partition cannot take it is refused on the table
//     (back-pressure).
//
// Scale multiplies every rate (partitions, budgets, warm throughput,
// quotas), so a design's throttling shows at rates one machine can drive.
package emulate
