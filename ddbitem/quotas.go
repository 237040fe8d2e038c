package ddbitem

// DynamoDB's quotas and unit sizes (AWS's "Service, account, and table
// quotas"), the one home of every number the harness enforces or models.
// Each cites the page that states it.
const (
	// ReadUnitBytes and WriteUnitBytes are what one read unit (a strongly
	// consistent read; an eventually consistent read costs half a unit, a
	// transactional one two) and one write unit cover; larger reads and
	// writes round up to whole units.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
	ReadUnitBytes  = 4 << 10
	WriteUnitBytes = 1 << 10

	// PartitionRCU and PartitionWCU are what one partition serves per
	// second: 3,000 read units and 1,000 write units, each side throttled
	// on its own. Adaptive capacity moves throughput to a hot partition and can
	// isolate a hot item on a partition of its own, but never lifts this
	// ceiling, so it bounds every partition key value.
	// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html
	// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/throttling-key-range-limit-exceeded-mitigation.html
	// https://repost.aws/knowledge-center/on-demand-table-throttling-dynamodb
	// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html#isolate-frequent-access-items
	PartitionRCU = 3000
	PartitionWCU = 1000

	// EventualKeyRCU is a public measurement of one partition key value
	// queried with eventually consistent reads on an on-demand table: about
	// 4,500 read units a second (9,000 queries of half a unit) in the first
	// ten minutes, where PartitionRCU would give 6,000 queries. The model
	// keeps PartitionRCU, and says so where such reads set a key's limit.
	// Source: https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
	EventualKeyRCU = 4500

	// PartitionBytes is the data one partition stores; provisioned tables
	// get a partition per 10 GB.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.Partitions.html
	PartitionBytes = 10 << 30

	// MaxItemBytes is the largest item DynamoDB stores: 400 KB, attribute
	// names included.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items
	MaxItemBytes = 400 << 10

	// MaxKeyAttributes is how many attributes a GSI's partition key, and
	// its sort key, may each be made of (a multi-attribute key); a table's
	// and an LSI's keys are one attribute each.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
	MaxKeyAttributes = 4

	// MaxNestingLevels is how deep DynamoDB nests an attribute's value: a
	// top-level attribute is level 1, each map or list it sits in one more,
	// so a scalar may sit inside at most 31 maps or lists.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-attributes
	// (32 levels); the boundary, 31 wrappers accepted and 32 refused, as
	// measured against the real service by dynoxide's conformance tests:
	// https://docs.rs/crate/dynoxide-rs/3.0.0/source/tests/nesting_depth.rs
	MaxNestingLevels = 32

	// MaxCollectionBytes is the largest item collection (one partition key
	// value, its table items and LSI entries) on a table with LSIs.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit
	MaxCollectionBytes = 10 << 30

	// BurstSeconds is how much unused provisioned capacity DynamoDB keeps
	// for bursts: up to 300 seconds of it.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
	BurstSeconds = 300

	// OnDemandTableRRU and OnDemandTableWRU are the default per-table
	// throughput quota of an on-demand table (and of each of its GSIs).
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#default-limits-throughput
	OnDemandTableRRU = 40000
	OnDemandTableWRU = 40000

	// NewOnDemandRRU and NewOnDemandWRU are what a new on-demand table
	// serves at once (or a linear combination); beyond that it scales to
	// double its previous peak, and more than double within 30 minutes can
	// throttle.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/pre-warming-on-demand-capacity-mode.html
	NewOnDemandRRU = 12000
	NewOnDemandWRU = 4000

	// MinOnDemandMax is the least maximum throughput (OnDemandThroughput)
	// an on-demand table or GSI may be given, per side: one request unit a
	// second. The maximum must also be below the table quota
	// (OnDemandTableRRU, OnDemandTableWRU).
	// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
	// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html
	MinOnDemandMax = 1

	// GrowSeconds is how old an on-demand table's previous peak must be
	// before the table serves twice it: traffic that doubles within 30
	// minutes can throttle.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
	GrowSeconds = 30 * 60

	// GrowFactor is how many times its previous peak an on-demand table
	// serves at once, that peak GrowSeconds old.
	// Source: as GrowSeconds
	GrowFactor = 2

	// PartitionSplit is how many partitions one becomes when an on-demand
	// table's partitions no longer cover its grown throughput: AWS adds
	// partitions when an on-demand table sees a new high-water mark in
	// throughput received, by splitting them, and never merges them.
	// Inferred: AWS publishes neither how many partitions split nor into
	// how many; two halves of a partition's key range is how the split is
	// described in public (the blog below, a former DynamoDB engineer's
	// account at https://news.ycombinator.com/item?id=31211155).
	// Source: https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
	PartitionSplit = 2

	// OnDemandRampWRU and OnDemandRampSeconds are a public measurement of a
	// new on-demand table: writes of fresh keys ramped linearly from 0 to
	// OnDemandRampWRU a second over OnDemandRampSeconds reached it; ramped
	// over one minute, up to 3,000 a second were never throttled and no
	// more than about 4,000 were served.
	// Source: https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/
	OnDemandRampWRU     = 40000
	OnDemandRampSeconds = 120 * 60

	// MaxPageBytes is the most data one Query or Scan call reads: a larger
	// result comes back in 1 MB pages, each needing another call with the
	// previous page's LastEvaluatedKey.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html
	MaxPageBytes = 1 << 20

	// MaxTransactActions is the most actions one TransactWriteItems or
	// TransactGetItems request may hold.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-dynamodb-transactions
	MaxTransactActions = 100

	// MaxBatchWrite is the most put and delete requests one BatchWriteItem
	// call may carry.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
	MaxBatchWrite = 25

	// MaxBatchGet is the most keys one BatchGetItem call may name; a call
	// also returns at most 16 MB, and hands back the keys past that (or
	// past the table's capacity) as UnprocessedKeys.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
	MaxBatchGet = 100
)
