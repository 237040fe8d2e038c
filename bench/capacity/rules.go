package capacity

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// partitionLimitText names the per-partition limit in reports, and the
// scale when it is not DynamoDB's own.
func (r *run) partitionLimitText() string {
	lim := r.partitionLimit()
	return fmt.Sprintf("%s RCU/s or %s WCU/s per partition%s", figure.Thousands(lim.rcu), figure.Thousands(lim.wcu), scaleText(r.scale()))
}

// scaleText says that limits were scaled, and by what.
func scaleText(k float64) string {
	if k == 1 {
		return ""
	}
	return fmt.Sprintf(" (DynamoDB's limits × %g)", k)
}

// tableLimitText names the table-level limit a target reaches.
func (r *run) tableLimitText(write bool) string {
	lim, side := r.tableLimit(), "RCU"
	n := lim.rcu
	if write {
		side, n = "WCU", lim.wcu
	}
	what := "on-demand table quota"
	switch {
	case r.provisioned():
		what = "provisioned"
	case write && r.MaxWrites > 0, !write && r.MaxReads > 0:
		what = "on-demand maximum throughput"
	}
	return fmt.Sprintf("%s %s/s %s%s", figure.Thousands(n), side, what, scaleText(r.scale()))
}

// What a rule rests on, in Rule.Basis.
const (
	basisDocumented = "documented" // an AWS page states it
	basisMeasured   = "measured"   // a public measurement of real DynamoDB shows it
	basisInferred   = "inferred"   // the public record is silent; the model assumes it
)

// rules lists every rule and number the model applied, with what it
// rests on and its source.
func rules() []Rule {
	const (
		guide  = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
		rw     = guide + "read-write-operations.html"
		doc    = basisDocumented
		meas   = basisMeasured
		guess  = basisInferred
		quotas = guide + "ServiceQuotas.html"
	)
	return []Rule{
		{"read unit: strongly consistent; half eventually consistent, double transactional", ddbitem.ReadUnitBytes, "bytes", doc, rw + "#read-operation-consumption"},
		{"write unit; double transactional", ddbitem.WriteUnitBytes, "bytes", doc, rw + "#write-operation-consumption"},
		{"index writes inside a transaction are not doubled", 0, "", meas, "https://github.com/nubo-db/dynoxide/pull/188"},
		{"item size: names and values by type, numbers by base-100 digit pairs on the decimal point, a byte for the minus sign", ddbitem.MaxItemBytes, "bytes per item", meas, "https://github.com/nubo-db/dynamodb-conformance/blob/e776beb2e73bfce88ed8081e33bb1dae977a4dd9/src/item-size.ts"},
		{"GetItem and BatchGetItem: each item rounded up on its own; a missing key costs the minimum", 0, "", doc, rw + "#read-operation-consumption"},
		{"TransactGetItems: a missing key costs two units", 2, "read units", meas, "https://github.com/ExtendDB/extenddb/issues/76"},
		{"Query: the entries it evaluated summed, rounded up once; an empty Query costs the minimum", 0, "", doc, rw + "#read-operation-consumption"},
		{"filters and Select=COUNT: charged for every item evaluated (ScannedCount), not those returned", 0, "", doc, guide + "Query.FilterExpression.html"},
		{"Scan: the page's evaluated bytes summed and rounded up once, as a Query's (public measurements fit it within half a unit per page), shared among the partition keys read", 0, "", guess, "https://dev.to/aws-heroes/dynamodb-scan-and-why-128-5-rcu-2k25"},
		{"Scan: a minimum unit per physical partition touched (not applied: the partitions a page touches are not observable)", 0, "", guess, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/Scan.md"},
		{"PutItem and UpdateItem: the larger of the item before and after; DeleteItem: the item deleted", 0, "", doc, rw + "#write-operation-consumption"},
		{"failed conditional write: the larger of the stored item and the item it would have written", 0, "", doc, rw + "#write-operation-consumption"},
		{"cancelled transaction: every action charged, sized as a failed conditional write", 0, "", guess, guide + "transaction-apis.html#transaction-capacity-handling"},
		{"index writes: an entry added or removed is one write, a moved index key a delete and a put", 0, "", doc, guide + "GSI.html#GSI.ThroughputConsiderations.Writes"},
		{"LSI read of attributes it does not project: each item fetched from the table, rounded on its own", 0, "", doc, guide + "LSI.html#LSI.ThroughputConsiderations.Reads"},
		{"partition read throughput", ddbitem.PartitionRCU, "RCU/s", doc, guide + "throttling-key-range-limit-exceeded-mitigation.html"},
		{"a partition's reads and writes throttled apart, as the developer guide states them (the on-demand initial-throughput statement, " +
			guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial, speaks of a linear combination for a whole table)", 0, "", guess, guide + "bp-partition-key-design.html"},
		{"partition write throughput", ddbitem.PartitionWCU, "WCU/s", doc, guide + "bp-partition-key-design.html"},
		{"one key's eventually consistent reads served in the first ten minutes (the model keeps the partition's 3,000 RCU/s and says where such reads set a key's limit)",
			ddbitem.EventualKeyRCU, "RCU/s", meas, "https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"a table key's reads counted eventually consistent when most of its heaviest pattern's read units were (consistency is kept by pattern, not by key)", 0, "", guess, guide + "GSI.html"},
		{"partition data", ddbitem.PartitionBytes, "bytes", doc, guide + "HowItWorks.Partitions.html"},
		{"partitions of a provisioned table: RCU ÷ 3,000 + WCU ÷ 1,000, and by 10 GB of data", 0, "", doc, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/GuidelinesForTables.md"},
		{"partitions of an on-demand table or GSI: its warm reads ÷ 3,000 or writes ÷ 1,000, whichever is more (4 for a new table), and by 10 GB of data", 0, "", guess, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"LSI item collection size", ddbitem.MaxCollectionBytes, "bytes", doc, guide + "LSI.html#LSI.ItemCollections.SizeLimit"},
		{"a key's partition: an FNV-1a hash of its value, salted by the placement seed, the hot keys placed there sharing its limit (AWS's placement is not public: one draw of it)", 0, "", guess, guide + "HowItWorks.Partitions.html"},
		{"hot keys ranked by 3 × WCU + RCU", 0, "", doc, guide + "contributorinsights_HowItWorks.html"},
		{"burst capacity, best effort: a full bank assumed unless the measured rate leaves less", ddbitem.BurstSeconds, "seconds of unused provisioned throughput", doc, guide + "burst-adaptive-capacity.html"},
		{"burst bank after the run: 300 s of what the measured rate left unused", 0, "", guess, "https://repost.aws/knowledge-center/dynamodb-spiky-workloads-short-intervals"},
		{"on-demand table read quota (and each GSI's)", ddbitem.OnDemandTableRRU, "RRU/s", doc, quotas + "#default-limits-throughput"},
		{"on-demand table write quota (and each GSI's)", ddbitem.OnDemandTableWRU, "WRU/s", doc, quotas + "#default-limits-throughput"},
		{"new on-demand table warm throughput, reads", ddbitem.NewOnDemandRRU, "RRU/s", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"new on-demand table warm throughput, writes", ddbitem.NewOnDemandWRU, "WRU/s", doc, guide + "warm-throughput-scenarios.html"},
		{"warm throughput serves its reads, or its writes, or a linear combination of the two, not both in full at once", 0, "", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"a declared or grown warm throughput combines as a new table's", 0, "", guess, guide + "warm-throughput.html"},
		{"a table switched from provisioned to on-demand: its previous peak is half the most it was provisioned with, or a new table's, whichever is higher, so it serves at least that throughput at once",
			0, "", doc, "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/HowItWorks.ReadWriteCapacityMode.md"},
		{"a table switched from provisioned keeps the partitions it had (RCU ÷ 3,000 + WCU ÷ 1,000)", 0, "", doc, "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"a switched table's starting throughput taken side by side, each the higher of its provisioned and a new table's", 0, "", guess, guide + "bp-switching-capacity-modes.html"},
		{"a partition's key range refused: ProvisionedThroughputExceededException on a provisioned table or GSI, ThrottlingException on an on-demand one, reason …KeyRangeThroughputExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"over its account quota an on-demand table or GSI answers RequestLimitExceeded with reason …AccountLimitExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"an on-demand table or GSI refused by its warm throughput or growth answers ThrottlingException with reason …KeyRangeThroughputExceeded (AWS names no reason for it)", 0, "", guess, "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html"},
		{"on-demand maximum throughput (OnDemandThroughput) of the table and each GSI: requests past it are throttled; at least 1 unit per second, below the table quota",
			ddbitem.MinOnDemandMax, "unit/s at least", doc, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"past its maximum throughput an on-demand table or GSI answers ThrottlingException with reason …MaxOnDemandThroughputExceeded", 0, "", doc, guide + "Programming.Errors.html"},
		{"the maximum throughput held to a second of it, with no burst past it (AWS applies it best effort: burst capacity may let a workload pass it for a while)", 0, "", guess, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"an on-demand table's growth stops at its maximum throughput: its partitions split no further", 0, "", guess, guide + "on-demand-capacity-mode-max-throughput.html"},
		{"a new GSI's warm throughput equals a new table's (shown in AWS's DescribeTable example, stated nowhere)", 0, "", guess, guide + "check-warm-throughput.html"},
		{"on-demand growth: up to double the previous peak within 30 minutes", ddbitem.GrowSeconds, "seconds per doubling", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"on-demand growth factor over the previous peak", ddbitem.GrowFactor, "× the peak", doc, guide + "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"growth counted in doublings from the warm throughput as the first peak", 0, "", guess, guide + "warm-throughput.html"},
		{"on-demand peak: the throughput received in a second, refused calls (and their retries) included", 0, "", guess, "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"an on-demand table's partitions split in two, every one at once, when its grown throughput passes their limits; never merged", ddbitem.PartitionSplit, "partitions from one", guess, "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/"},
		{"a new on-demand table ramped from 0 to 40,000 writes/s over two hours reaches it", ddbitem.OnDemandRampSeconds, "seconds of ramp", meas, "https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/"},
		{"throttled share of a place over its limit: 1 − limit ÷ demand, per read and write side", 0, "", guess, ""},
	}
}

// patterns lists the per-pattern usage and Local's disagreements, in
// pattern order.
func (r *run) patterns() ([]PatternUsage, []Disagreement) {
	var ps []PatternUsage
	for _, p := range r.l.patterns {
		ps = append(ps, *p)
	}
	slices.SortFunc(ps, func(a, b PatternUsage) int { return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op)) })
	var ds []Disagreement
	for _, d := range r.l.diffs {
		if d.Differing > 0 {
			ds = append(ds, *d)
		}
	}
	slices.SortFunc(ds, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op), byTarget(a.Target, b.Target))
	})
	return ps, ds
}
