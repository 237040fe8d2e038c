package rules

import "time"

// The capacity model's own parameters and the prices it applies, each the
// value of a row of the rules table (All), so that a figure resting on
// one cites that row.

// DefaultTopN is how many hot keys per target a capacity.Report lists when
// capacity.Model.TopN is zero.
const DefaultTopN = 10

// TieShare is how close to the first limit another must be to be named
// tied with it: a run's rates move by a few percent from one run to the
// next, so limits this close may swap places between runs.
const TieShare = 0.05

// SpreadShare is the share of its partition's load at or under which a
// partition's named key does not drive it: the traffic is spread over
// three keys or more, and sharding that one key would lift the limit by
// half at most. Two hot keys that share a partition (half each) are
// still each worth sharding: the other can have the partition to itself.
const SpreadShare = 1.0 / 3

// DefaultTransactionHold is how long a transaction is taken to hold the
// items it writes on real DynamoDB: the p50 latency of a TransactWriteItems
// of five items measured on the service from AWS Lambda in the table's
// Region (25.3 ms; 32.1 ms for 25 items; a PutItem 7.55 ms). A call's
// latency seen by its client bounds the time the service holds its items
// from above, so the conflict limit it gives errs low. It does not depend
// on the machine that runs the harness, whose own hold
// (capacity.Model.TestBedHold) grows with its load.
// Source: https://github.com/alexdebrie/dynamodb-performance-testing/tree/master/put-batch-transaction-performance
// (results table; the method in https://www.alexdebrie.com/posts/dynamodb-transactions-performance/)
const DefaultTransactionHold = 25300 * time.Microsecond

// Prices of DynamoDB Standard tables in us-east-1 (US East, N. Virginia):
// on-demand per million request units, provisioned per capacity unit-hour,
// storage per GB-month past the free tier. The model's cost and the cost
// gate's estimate (bench/cost) both read them here.
// PriceDate is when these prices took effect (the on-demand reduction of
// 1 November 2024); they were still the listed prices when checked in
// November 2026. The pages render their figures with script, so the check
// went through restatements of them (for example
// https://airbyte.com/data-engineering-resources/dynamodb-pricing).
// Sources: https://aws.amazon.com/dynamodb/pricing/on-demand/
// https://aws.amazon.com/dynamodb/pricing/provisioned/
const (
	PriceDate              = "2024-11-01"
	PriceRegion            = "us-east-1"
	PriceTableClass        = "standard"
	PricePerMillionRRU     = 0.125
	PricePerMillionWRU     = 0.625
	PricePerRCUHour        = 0.00013
	PricePerWCUHour        = 0.00065
	PricePerGBMonth        = 0.25
	PriceSource            = "https://aws.amazon.com/dynamodb/pricing/" // the page the rules table cites for them
	ProvisionedUtilisation = 0.7                                        // the utilisation provisioned throughput is priced at (the target of AWS's auto scaling example)
)
