package rules

import (
	"fmt"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// Rule is one rule or number the capacity model applied (Value and Unit
// when it has one), named by ID where a figure's Source cites it, what it
// rests on (Basis: "documented" by an AWS page, "measured" on real DynamoDB by a
// public capture, or "inferred" where the public record is silent) and
// its source.
type Rule struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Value  float64 `json:"value,omitempty"`
	Unit   string  `json:"unit,omitempty"`
	Basis  string  `json:"basis"`
	Source string  `json:"source,omitempty"`
}

// What a rule rests on, in Rule.Basis.
const (
	BasisDocumented = "documented" // an AWS page states it
	BasisMeasured   = "measured"   // a public measurement of real DynamoDB shows it
	BasisInferred   = "inferred"   // the public record is silent; the model assumes it
)

// All lists every rule and number the model applied, with what it
// rests on and its source.
func All() []Rule {
	const (
		guide  = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
		rw     = guide + "read-write-operations.html"
		doc    = BasisDocumented
		meas   = BasisMeasured
		guess  = BasisInferred
		quotas = guide + "ServiceQuotas.html"
	)
	return []Rule{
		{"read-unit", "read unit: strongly consistent; half eventually consistent, double transactional", ddbitem.ReadUnitBytes, "bytes", doc, rw + "#read-operation-consumption"},
		{"write-unit", "write unit; double transactional", ddbitem.WriteUnitBytes, "bytes", doc, rw + "#write-operation-consumption"},
		{"tx-index-writes", "index writes inside a transaction are not doubled", 0, "", meas, "https://github.com/nubo-db/dynoxide/pull/188"},
		{"item-size", "item size: names and values by type, numbers by base-100 digit pairs on the decimal point, a byte for the minus sign", ddbitem.MaxItemBytes, "bytes per item", meas, "https://github.com/nubo-db/dynamodb-conformance/blob/e776beb2e73bfce88ed8081e33bb1dae977a4dd9/src/item-size.ts"},
		{"get-rounding", "GetItem and BatchGetItem: each item rounded up on its own; a missing key costs the minimum", 0, "", doc, rw + "#read-operation-consumption"},
		{"tx-get-missing", "TransactGetItems: a missing key costs two units", 2, "read units", meas, "https://github.com/ExtendDB/extenddb/issues/76"},
		{"query-rounding", "Query: the entries it evaluated summed, rounded up once; an empty Query costs the minimum", 0, "", doc, rw + "#read-operation-consumption"},
		{"filter-charge", "filters and Select=COUNT: charged for every item evaluated (ScannedCount), not those returned", 0, "", doc, guide + "Query.FilterExpression.html"},
		{"scan-rounding", "Scan: the page's evaluated bytes summed and rounded up once, as a Query's (public measurements fit it within half a unit per page), shared among the partition keys read", 0, "", guess, "https://dev.to/aws-heroes/dynamodb-scan-and-why-128-5-rcu-2k25"},
		{"scan-minimum", "Scan: a minimum unit per physical partition touched (not applied: the partitions a page touches are not observable)", 0, "", guess, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/Scan.md"},
		{"write-size", "PutItem and UpdateItem: the larger of the item before and after; DeleteItem: the item deleted", 0, "", doc, rw + "#write-operation-consumption"},
		{"failed-condition", "failed conditional write: the larger of the stored item and the item it would have written", 0, "", doc, rw + "#write-operation-consumption"},
		{"cancelled-tx", "cancelled transaction: every action charged, sized as a failed conditional write", 0, "", guess, guide + "transaction-apis.html#transaction-capacity-handling"},
		{"index-writes", "index writes: an entry added or removed is one write, a moved index key a delete and a put", 0, "", doc, guide + "GSI.html#GSI.ThroughputConsiderations.Writes"},
		{"lsi-fetch", "LSI read of attributes it does not project: each item fetched from the table, rounded on its own", 0, "", doc, guide + "LSI.html#LSI.ThroughputConsiderations.Reads"},
		{"partition-reads", "partition read throughput", ddbitem.PartitionRCU, "RCU/s", doc, guide + "throttling-key-range-limit-exceeded-mitigation.html"},
		{"partition-sides", "a partition's reads and writes throttled apart, as the developer guide states them (the on-demand initial-throughput statement, " +
			guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial, speaks of a linear combination for a whole table)", 0, "", guess, guide + "bp-partition-key-design.html"},
		{"eventual-key", "one key's eventually consistent reads served in the first ten minutes (the model keeps the partition's 3,000 RCU/s and says where such reads set a key's limit)",
			ddbitem.EventualKeyRCU, "RCU/s", meas, "https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"eventual-by-pattern", "a table key's reads counted eventually consistent when most of its heaviest pattern's read units were (consistency is kept by pattern, not by key)", 0, "", guess, guide + "GSI.html"},
		{"partition-writes", "partition write throughput", ddbitem.PartitionWCU, "WCU/s", doc, guide + "bp-partition-key-design.html"},
		{"partition-data", "partition data", ddbitem.PartitionBytes, "bytes", doc, guide + "HowItWorks.Partitions.html"},
		{"partitions-provisioned", "partitions of a provisioned table: RCU ÷ 3,000 + WCU ÷ 1,000, and by 10 GB of data", 0, "", doc, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/GuidelinesForTables.md"},
		{"partitions-on-demand", "partitions of an on-demand table or GSI: its warm reads ÷ 3,000 or writes ÷ 1,000, whichever is more, and by 10 GB of data (AWS publishes no count)",
			float64(throughput.WarmPartitions(ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU, 0)), "partitions for a new table", guess, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"lsi-collection", "LSI item collection size", ddbitem.MaxCollectionBytes, "bytes", doc, guide + "LSI.html#LSI.ItemCollections.SizeLimit"},
		{"placement", "a key's partition: its value's FNV-1a hash xored with the mixed placement seed, through SplitMix64's finalizer; every key placed there, hot or light, sharing its limit (AWS's placement is not public: each seed is one draw of it)", 0, "", guess, guide + "HowItWorks.Partitions.html"},
		{"hot-keys", "the keys placed on partitions: each table's or GSI's heaviest, by 3 × WCU + RCU (an arbitrary cut)", DefaultTopN, "hot keys per table or GSI", guess, ""},
		{"light-keys", "the other keys (all but the hot keys) count on the partition the placement puts each on; in the odds of other placements they are spread evenly over the partitions", 0, "", guess, guide + "HowItWorks.Partitions.html"},
		{"bucket-depth", "a partition's token bucket holds one second of its limit, per side (AWS states its limits per second, not how long a bucket is)", 1, "second", guess, guide + "bp-partition-key-design.html"},
		{"split-for-heat", fmt.Sprintf("split for heat: a partition at %.0f %% or more of a limit (either side) for this many seconds running has its hottest partition key value isolated on a partition of its own (AWS says adaptive capacity isolates frequently accessed items, not when; the emulated limits only)", 100*throughput.HotShare),
			throughput.DefaultIsolateAfter.Seconds(), "seconds", guess, guide + "burst-adaptive-capacity.html#isolate-frequent-access-items"},
		{"item-ceiling", "one item never takes more than one partition's throughput: adaptive capacity isolates a frequently accessed item on a partition of its own at most, and cannot split it", 0, "", doc, guide + "burst-adaptive-capacity.html#isolate-frequent-access-items"},
		{"conflict-ceiling", "the transactions that write one item run one at a time (a write of an item an ongoing transaction holds is refused), each holding it for its time in flight on real DynamoDB (transaction-hold, or the scenario's own); AWS does not say how long a transaction holds an item", 0, "", guess, guide + "transaction-apis.html#transaction-conflict-handling"},
		{"transaction-hold", "a transaction holds the items it writes for the p50 latency of TransactWriteItems of 5 items on real DynamoDB, measured from AWS Lambda in the table's Region (a client's latency, an upper bound of the hold); the test bed's own is shown beside it, not used",
			DefaultTransactionHold.Seconds() * 1000, "ms", meas, "https://github.com/alexdebrie/dynamodb-performance-testing/tree/master/put-batch-transaction-performance"},
		{"hot-key-rank", "hot keys ranked by 3 × WCU + RCU", 0, "", doc, guide + "contributorinsights_HowItWorks.html"},
		{"provisioned-budget", "a provisioned table or GSI throttles past its provisioned RCU or WCU once burst is spent", 0, "", doc, guide + "throttling-provisioned-capacity-exceeded-mitigation.html"},
		{"burst", "burst capacity, best effort: a full bank assumed unless the measured rate leaves less", ddbitem.BurstSeconds, "seconds of unused provisioned throughput", doc, guide + "burst-adaptive-capacity.html"},
		{"burst-after-run", "burst bank after the run: 300 s of what the measured rate left unused", 0, "", guess, "https://repost.aws/knowledge-center/dynamodb-spiky-workloads-short-intervals"},
		{"quota-reads", "on-demand table read quota (and each GSI's)", ddbitem.OnDemandTableRRU, "RRU/s", doc, quotas + "#default-limits-throughput"},
		{"quota-writes", "on-demand table write quota (and each GSI's)", ddbitem.OnDemandTableWRU, "WRU/s", doc, quotas + "#default-limits-throughput"},
		{"warm-reads", "new on-demand table warm throughput, reads", ddbitem.NewOnDemandRRU, "RRU/s", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"warm-writes", "new on-demand table warm throughput, writes", ddbitem.NewOnDemandWRU, "WRU/s", doc, guide + "warm-throughput-scenarios.html"},
		{"warm-combination", "a new table's warm throughput serves its reads, or its writes, or a linear combination of the two, not both in full at once (a table switched from provisioned serves both: switched-sides)", 0, "", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"warm-declared", "a declared or grown warm throughput combines as a new table's", 0, "", guess, guide + "warm-throughput.html"},
		{"switched-peak", "a table switched from provisioned to on-demand: its previous peak is half the most it was provisioned with, or a new table's, whichever is higher, so it serves at least that throughput at once",
			0, "", doc, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/HowItWorks.ReadWriteCapacityMode.md"},
		{"switched-partitions", "a table switched from provisioned keeps the partitions it had (RCU ÷ 3,000 + WCU ÷ 1,000)", 0, "", doc, "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"switched-sides", "a table switched from provisioned sustains at least its old provisioned reads and its writes at once, each side apart (the higher of its provisioned and a new table's); the linear combination is a new table's", 0, "", doc, guide + "bp-switching-capacity-modes.html"},
		{"key-range-exception", "a partition's key range refused: ProvisionedThroughputExceededException on a provisioned table or GSI, ThrottlingException on an on-demand one, reason …KeyRangeThroughputExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"account-quota-exception", "over its account quota an on-demand table or GSI answers RequestLimitExceeded with reason …AccountLimitExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"throttling-reason", "a throttling reason names what was throttled (Table or Index), the side (Read or Write) and the limit (KeyRangeThroughputExceeded, ProvisionedThroughputExceeded, MaxOnDemandThroughputExceeded, AccountLimitExceeded)", 0, "", doc, "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html"},
		{"throttling-metrics", "each reason's events counted in a CloudWatch metric of its own (…KeyRangeThroughputThrottleEvents, …MaxOnDemandThroughputThrottleEvents, …AccountLimitThrottleEvents), a provisioned limit's in ReadThrottleEvents and WriteThrottleEvents", 0, "", doc, guide + "TroubleshootingThrottling-cloudwatch.html"},
		{"limit-tie", "limits whose rates are this close are named tied: which one a run reaches first may change between runs", 100 * TieShare, "%", guess, ""},
		{"spread-partition", "a partition whose named key carries this share of its load or less has its traffic spread over several keys: more partitions lift it, sharding that key does little", 100 * SpreadShare, "%", guess, guide + "bp-partition-key-design.html"},
		{"warm-refusal-exception", "an on-demand table or GSI refused by its warm throughput or growth answers ThrottlingException with reason …KeyRangeThroughputExceeded (AWS names no reason for it)", 0, "", guess, "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html"},
		{"max-on-demand", "on-demand maximum throughput (OnDemandThroughput) of the table and each GSI: requests past it are throttled; at least 1 unit per second, below the table quota",
			ddbitem.MinOnDemandMax, "unit/s at least", doc, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"max-exception", "past its maximum throughput an on-demand table or GSI answers ThrottlingException with reason …MaxOnDemandThroughputExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"max-no-burst", "the maximum throughput held to a second of it, with no burst past it (AWS applies it best effort: burst capacity may let a workload pass it for a while)", 0, "", guess, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"max-stops-growth", "an on-demand table's growth stops at its maximum throughput: its partitions split no further", 0, "", guess, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"warm-gsi", "a new GSI's warm throughput equals a new table's (shown in AWS's DescribeTable example, stated nowhere)", 0, "", guess, guide + "check-warm-throughput.html"},
		{"growth-window", "on-demand growth: each second served grows toward double itself over 30 minutes (× 2^(age ÷ 30 min)), so traffic never passes double what was served 30 minutes before; read from AWS's rule that traffic more than double the previous peak within 30 minutes may throttle (AWS gives the window, not a pace)", ddbitem.GrowSeconds, "seconds per doubling", guess, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"growth-factor", "on-demand growth: up to double the previous peak at once; traffic more than double it within 30 minutes may throttle", ddbitem.GrowFactor, "× the peak", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"growth-doublings", "growth counted in doublings from the warm throughput as the first peak", 0, "", guess, guide + "warm-throughput.html"},
		{"peak-consumed", "on-demand peak: the throughput a second consumed; refused calls (and their retries) add nothing to it", 0, "", meas, "https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/"},
		{"partition-split", "an on-demand table's partitions split in two, every one at once, when its grown throughput passes their limits; never merged", ddbitem.PartitionSplit, "partitions from one", guess, "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"on-demand-ramp", "a new on-demand table ramped from 0 to 40,000 writes/s over two hours reaches it", ddbitem.OnDemandRampSeconds, "seconds of ramp", meas, "https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/"},
		{"throttled-share", "throttled share of a place over its limit: 1 − limit ÷ demand, per read and write side", 0, "", guess, ""},
		{"forecast-alone", "the forecast at a target rate takes each partition key alone on a partition (the replay places them as the run did)", 0, "", guess, ""},
		{"growth-extrapolation", "growth to a limit: the bytes the run added a second, kept up for as long as it takes, in proportion to traffic (a short run extrapolated)", 0, "", guess, ""},
		{"prices", "prices: on demand per million request units, provisioned per capacity unit-hour (" + PriceRegion + ", standard table class, as of " + PriceDate + ")", 0, "", doc, PriceSource},
		{"provisioned-utilisation", "provisioned cost: throughput for the mix at this utilisation (the target of AWS's auto scaling example)", 100 * ProvisionedUtilisation, "%", guess, guide + "AutoScaling.html"},
	}
}
