package emulate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("on the wire, as DynamoDB answers", Label("wire"), func() {
	var (
		e      *Emulator
		db     *meter.Client
		clock  *ddbtest.Clock
		table  string
		schema designs.Schema
		cfg    Config
	)
	BeforeEach(func() {
		clock = ddbtest.NewClock()
		schema = wireSchema
		// 0.001: a partition serves 3 read and 1 write unit per second; an
		// on-demand table's budget (its new-table warm throughput) is 12
		// read and 4 write units per second, out of the specs' way.
		cfg = Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 4}}
	})
	// After every BeforeEach, so that a Context can change schema and cfg.
	JustBeforeEach(func(ctx SpecContext) {
		cfg.Now = clock.Now
		e, db, table = emulated(ctx, schema, cfg, "emulate")
	})

	put := func(ctx context.Context, pk, sk, g string, opts ...func(*dynamodb.Options)) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(pk, sk, g)}, opts...)
		return err
	}
	get := func(ctx context.Context, pk, sk string) (*dynamodb.GetItemOutput, error) {
		return db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(pk, sk, ""), ConsistentRead: aws.Bool(true)})
	}
	query := func(ctx context.Context, pk string) (*dynamodb.QueryOutput, error) {
		return db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk)}})
	}
	batchWrite := func(ctx context.Context, reqs ...types.WriteRequest) (*dynamodb.BatchWriteItemOutput, error) {
		return db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
	}
	// seed writes items "PK/SK" past the emulator, so that it spends no
	// partition's units.
	seed := func(ctx SpecContext, items ...string) {
		GinkgoHelper()
		for _, it := range items {
			pk, sk, _ := strings.Cut(it, "/")
			_, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(pk, sk, "")})
			Expect(err).NotTo(HaveOccurred())
		}
	}
	// stored reads past the emulator whether DynamoDB holds the item.
	stored := func(ctx SpecContext, pk, sk string) bool {
		GinkgoHelper()
		out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			Key: itemAt(pk, sk, "")})
		Expect(err).NotTo(HaveOccurred())
		return len(out.Item) > 0
	}
	// drainWrites spends the write unit of pk's partition: one small put.
	drainWrites := func(ctx SpecContext, pk string) {
		GinkgoHelper()
		Expect(put(ctx, pk, "0", "")).To(Succeed())
	}
	// drainReads spends the 3 read units of pk's partition: three strongly
	// consistent reads of a small item (pk/1, which must exist), 1 each.
	drainReads := func(ctx SpecContext, pk string) {
		GinkgoHelper()
		for range 3 {
			_, err := get(ctx, pk, "1")
			Expect(err).NotTo(HaveOccurred())
		}
	}
	// apart checks the keys land on partitions of their own.
	apart := func(keys ...string) {
		GinkgoHelper()
		seen := map[uint64]string{}
		for _, k := range keys {
			p := partitionOf(k, cfg.Partitions)
			Expect(seen).NotTo(HaveKey(p), "%s shares partition %d with %s", k, p, seen[p])
			seen[p] = k
		}
	}
	// throttledAfterRetries checks err is DynamoDB's exception with reason,
	// on resource, after the SDK's three attempts: the SDK parsed the
	// reasons from the member that exception spells.
	throttledAfterRetries := func(err error, exception, reason, resource string) {
		GinkgoHelper()
		name, reasons := throttlingReasons(err)
		Expect(name).To(Equal(exception), "got %v", err)
		Expect(reasons).To(HaveLen(1))
		Expect(aws.ToString(reasons[0].Reason)).To(Equal(reason))
		Expect(aws.ToString(reasons[0].Resource)).To(Equal(resource))
		retriedOut(err)
	}
	arn := func() string { return "arn:aws:dynamodb:ddblocal:000000000000:table/" + table }
	// counts is what the emulator measured of pattern id's calls.
	counts := func(id designs.PatternID) PatternThrottles {
		for _, p := range e.Measured(0, 0).Patterns {
			if p.Pattern == id {
				return p
			}
		}
		return PatternThrottles{Pattern: id}
	}

	It("refuses a single write once its partition is drained, with ThrottlingException on an on-demand table, writes nothing, and the SDK retries it", func(ctx SpecContext) {
		Expect(put(ctx, "A", "1", "")).To(Succeed())
		err := put(ctx, "A", "2", "")
		throttledAfterRetries(err, answerOnDemand, "TableWriteKeyRangeThroughputExceeded", arn())
		saidAsAWS(err, "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index")
		Expect(stored(ctx, "A", "2")).To(BeFalse())
		clock.Add(time.Second)
		Expect(put(ctx, "A", "2", "")).To(Succeed(), "a second later the partition has its unit back")
		Expect(stored(ctx, "A", "2")).To(BeTrue())
	})

	It("refuses a strongly consistent read once its partition's read units are spent, and still reads a key on another partition", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, "A/1", "B/1")
		drainReads(ctx, "A")

		_, err := get(ctx, "A", "1")
		throttledAfterRetries(err, answerOnDemand, "TableReadKeyRangeThroughputExceeded", arn())

		out, err := get(ctx, "B", "1")
		Expect(err).NotTo(HaveOccurred())
		Expect(keyNames([]map[string]types.AttributeValue{out.Item})).To(Equal([]string{"B/1"}))
	})

	It("refuses a whole Query of a spent partition, and answers a Query of a key on another partition", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, "A/1", "A/2", "B/1", "B/2")
		drainReads(ctx, "A")

		_, err := query(ctx, "A")
		throttledAfterRetries(err, answerOnDemand, "TableReadKeyRangeThroughputExceeded", arn())

		out, err := query(ctx, "B")
		Expect(err).NotTo(HaveOccurred())
		Expect(keyNames(out.Items)).To(Equal([]string{"B/1", "B/2"}))
	})

	It("returns a batch write's requests on a spent partition as UnprocessedItems, writes the others, and does not retry", func(ctx SpecContext) {
		apart("A", "B", "C")
		drainWrites(ctx, "A")

		bctx := designs.WithPattern(ctx, "batch")
		out, err := batchWrite(bctx, putRequest("A", "1"), putRequest("B", "1"), putRequest("A", "2"), putRequest("C", "1"))
		Expect(err).NotTo(HaveOccurred(), "a batch some of whose items were served succeeds")
		Expect(out.UnprocessedItems).To(HaveLen(1))
		Expect(putNames(out.UnprocessedItems[table])).To(Equal([]string{"A/1", "A/2"}))

		Expect(stored(ctx, "A", "1")).To(BeFalse())
		Expect(stored(ctx, "A", "2")).To(BeFalse())
		Expect(stored(ctx, "B", "1")).To(BeTrue())
		Expect(stored(ctx, "C", "1")).To(BeTrue())
		// Unprocessed items are the caller's to resend, not the SDK's.
		Expect(counts("batch")).To(MatchFields(IgnoreExtras, Fields{"Calls": BeEquivalentTo(1), "Attempts": BeEquivalentTo(1),
			"Throttled": BeEquivalentTo(0), "Unprocessed": BeEquivalentTo(2)}))
	})

	It("admits a batch write's items one by one: those its partition's last unit cannot serve come back as UnprocessedItems", func(ctx SpecContext) {
		// A's partition has its 1 write unit; each small put costs 1.
		bctx := designs.WithPattern(ctx, "batch")
		out, err := batchWrite(bctx, putRequest("A", "1"), putRequest("A", "2"), putRequest("A", "3"))
		Expect(err).NotTo(HaveOccurred())
		Expect(putNames(out.UnprocessedItems[table])).To(Equal([]string{"A/2", "A/3"}))
		Expect(stored(ctx, "A", "1")).To(BeTrue())
		Expect(stored(ctx, "A", "2")).To(BeFalse())
		Expect(stored(ctx, "A", "3")).To(BeFalse())
		Expect(counts("batch")).To(MatchFields(IgnoreExtras, Fields{"Throttled": BeEquivalentTo(0), "Unprocessed": BeEquivalentTo(2)}))
	})

	It("admits a batch read's keys one by one: those its partition's last units cannot serve come back as UnprocessedKeys", func(ctx SpecContext) {
		// A's partition has 3 read units; a strongly consistent read of a
		// small item costs 1.
		seed(ctx, "A/1", "A/2", "A/3", "A/4", "A/5")
		keys := make([]map[string]types.AttributeValue, 5)
		for i := range keys {
			keys[i] = itemAt("A", strconv.Itoa(i+1), "")
		}
		out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			table: {Keys: keys, ConsistentRead: aws.Bool(true)}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Responses[table]).To(HaveLen(3))
		Expect(keyNames(out.UnprocessedKeys[table].Keys)).To(Equal([]string{"A/4", "A/5"}))
	})

	It("refuses a whole batch write, after the SDK's retries, when every item's partition is spent", func(ctx SpecContext) {
		apart("A", "B")
		drainWrites(ctx, "A")
		drainWrites(ctx, "B")

		bctx := designs.WithPattern(ctx, "batch")
		_, err := batchWrite(bctx, putRequest("A", "1"), putRequest("B", "1"), putRequest("A", "2"), putRequest("B", "2"))
		// The first item's refusal answers for the batch.
		throttledAfterRetries(err, answerOnDemand, "TableWriteKeyRangeThroughputExceeded", arn())
		for _, k := range [][2]string{{"A", "1"}, {"B", "1"}, {"A", "2"}, {"B", "2"}} {
			Expect(stored(ctx, k[0], k[1])).To(BeFalse(), "%s/%s", k[0], k[1])
		}
		Expect(counts("batch")).To(MatchFields(IgnoreExtras, Fields{"Calls": BeEquivalentTo(1), "Attempts": BeEquivalentTo(3),
			"Throttled": BeEquivalentTo(1), "Unprocessed": BeEquivalentTo(0)}))
	})

	It("returns a batch read's keys on a spent partition as UnprocessedKeys, and the other items as Responses", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, "A/1", "B/1")
		drainReads(ctx, "A")

		bctx := designs.WithPattern(ctx, "batch")
		out, err := db.BatchGetItem(bctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			table: {Keys: []map[string]types.AttributeValue{itemAt("A", "1", ""), itemAt("B", "1", "")}, ConsistentRead: aws.Bool(true)}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(keyNames(out.Responses[table])).To(Equal([]string{"B/1"}))
		Expect(out.UnprocessedKeys).To(HaveLen(1))
		Expect(keyNames(out.UnprocessedKeys[table].Keys)).To(Equal([]string{"A/1"}))
		Expect(counts("batch")).To(MatchFields(IgnoreExtras, Fields{"Calls": BeEquivalentTo(1), "Attempts": BeEquivalentTo(1),
			"Unprocessed": BeEquivalentTo(1)}))
	})

	It("cancels a write transaction with an action on a spent partition, ThrottlingError for that action, writes and charges nothing, and the SDK does not retry", func(ctx SpecContext) {
		apart("A", "B")
		drainWrites(ctx, "A")

		tctx := designs.WithPattern(ctx, "tx")
		_, err := db.TransactWriteItems(tctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(table), Item: itemAt("B", "1", "")}},
			{Put: &types.Put{TableName: aws.String(table), Item: itemAt("A", "1", "")}},
		}})
		Expect(ddbtest.CancellationCodes(err)).To(Equal([]string{"None", "ThrottlingError"}))
		Expect(stored(ctx, "B", "1")).To(BeFalse(), "a cancelled transaction writes none of its actions")
		Expect(stored(ctx, "A", "1")).To(BeFalse())
		Expect(counts("tx")).To(MatchFields(IgnoreExtras, Fields{"Calls": BeEquivalentTo(1), "Attempts": BeEquivalentTo(1),
			"Refused": BeEquivalentTo(1), "Throttled": BeEquivalentTo(1), "Cancelled": BeEquivalentTo(1)}))
		// Refused before it reached DynamoDB, it took nothing from B's partition.
		Expect(put(ctx, "B", "2", "")).To(Succeed())
	})

	It("cancels a read transaction with a read on a spent partition, ThrottlingError for that read, and the SDK does not retry", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, "A/1", "B/1")
		drainReads(ctx, "A")

		tctx := designs.WithPattern(ctx, "tx")
		_, err := db.TransactGetItems(tctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String(table), Key: itemAt("A", "1", "")}},
			{Get: &types.Get{TableName: aws.String(table), Key: itemAt("B", "1", "")}},
		}})
		Expect(ddbtest.CancellationCodes(err)).To(Equal([]string{"ThrottlingError", "None"}))
		Expect(counts("tx")).To(MatchFields(IgnoreExtras, Fields{"Calls": BeEquivalentTo(1), "Attempts": BeEquivalentTo(1),
			"Cancelled": BeEquivalentTo(1)}))
	})

	It("refuses a write on the table when its GSI partition is spent (back-pressure), naming the index", func(ctx SpecContext) {
		// a and c on different table partitions: only the index's partition
		// of "hot" is shared, and the first put spends its unit.
		apart("a", "c")
		Expect(put(ctx, "a", "1", "hot")).To(Succeed())

		err := put(ctx, "c", "1", "hot")
		throttledAfterRetries(err, answerOnDemand, "IndexWriteKeyRangeThroughputExceeded", arn()+"/index/ByG")
		saidAsAWS(err, "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index")
		Expect(stored(ctx, "c", "1")).To(BeFalse())
		Expect(put(ctx, "c", "2", "")).To(Succeed(), "c's table partition had its unit all along")
	})

	Context("with GSI partitions of 10 WCU/s", func() {
		BeforeEach(func() { cfg.Scale = 0.01 }) // the table's budget 40 WCU/s, out of the way

		// upsert creates item pk/1 with G=hot: an UpdateItem that finds no
		// item writes one, and with it an entry on the index's "hot".
		upsert := func(ctx context.Context, pk string) error {
			_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: itemAt(pk, "1", ""),
				UpdateExpression:          aws.String("SET G = :g, Score = :s"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":g": str("hot"), ":s": &types.AttributeValueMemberN{Value: "1"}}})
			return err
		}

		It("refuses an upsert burst at the call that finds the index's partition spent, and leaves it no debt", func(ctx SpecContext) {
			// 20 first writes in one instant on 20 items: each 1 WCU on its
			// table partition (at most 20 over 4 of 10) and on the index's hot.
			for i := range 20 {
				err := upsert(ctx, fmt.Sprintf("u%02d", i))
				if i < 10 {
					Expect(err).NotTo(HaveOccurred(), "upsert %d: the index's partition had units left", i)
					continue
				}
				throttledAfterRetries(err, answerOnDemand, "IndexWriteKeyRangeThroughputExceeded", arn()+"/index/ByG")
				Expect(stored(ctx, fmt.Sprintf("u%02d", i), "1")).To(BeFalse(), "upsert %d was refused: it wrote nothing", i)
			}
			// A second later the partition has refilled its 10 units, none
			// owed: the burst was held to what it could take.
			clock.Add(time.Second)
			for i := range 10 {
				Expect(upsert(ctx, fmt.Sprintf("v%02d", i))).To(Succeed(), "upsert %d of the next second", i)
			}
		})
	})

	It("charges nothing for a refused request: a second's refill lets exactly one write through", func(ctx SpecContext) {
		drainWrites(ctx, "A")
		pctx := designs.WithPattern(ctx, "put")
		for _, sk := range []string{"1", "2"} {
			throttledAfterRetries(put(pctx, "A", sk, ""), answerOnDemand, "TableWriteKeyRangeThroughputExceeded", arn())
		}
		Expect(counts("put").Refused).To(BeEquivalentTo(6), "two calls of three refused attempts")

		clock.Add(time.Second) // 1 WCU/s: one unit back, had the refusals taken none
		Expect(put(pctx, "A", "1", "")).To(Succeed())
		throttledAfterRetries(put(pctx, "A", "2", ""), answerOnDemand, "TableWriteKeyRangeThroughputExceeded", arn())
		Expect(stored(ctx, "A", "1")).To(BeTrue())
		Expect(stored(ctx, "A", "2")).To(BeFalse())
	})

	It("serves a refused write on the SDK's retry once its partition refilled during the backoff", func(ctx SpecContext) {
		drainWrites(ctx, "A")
		pctx := designs.WithPattern(ctx, "put")
		Expect(put(pctx, "A", "1", "", clock.Backoff(time.Second))).To(Succeed())
		Expect(stored(ctx, "A", "1")).To(BeTrue())
		Expect(counts("put")).To(Equal(PatternThrottles{Pattern: "put", Calls: 1, Attempts: 2, Retries: 1, Refused: 1}))
	})

	It("counts each retry of the SDK where it happens, and the backoff it waited: a request cut short before its first attempt hides none", func(ctx SpecContext) {
		drainWrites(ctx, "A")
		pctx := designs.WithPattern(ctx, "put")
		before := clock.Now()
		Expect(put(pctx, "A", "1", "", clock.Backoff(time.Second))).To(Succeed())
		cut, cancel := context.WithCancel(pctx)
		cancel() // as the end of a run's drain cuts a call short
		Expect(put(cut, "B", "1", "")).To(MatchError(context.Canceled))

		Expect(counts("put")).To(Equal(PatternThrottles{Pattern: "put", Calls: 2, Attempts: 2, Retries: 1, Refused: 1}))
		Expect(e.Measured(2, time.Second).Retries).To(BeEquivalentTo(1), "the run's one retry, not attempts less requests (0)")
		Expect(e.BackoffHeld(before, clock.Now())).To(Equal(time.Second), "the retry was sent a second after its refusal")
		Expect(e.BackoffHeld(clock.Now(), clock.Now().Add(time.Second))).To(BeZero())
	})

	It("counts each page of a paged call as a request, with its own retries", func(ctx SpecContext) {
		seed(ctx, "A/1", "A/2", "A/3")
		drainReads(ctx, "A")
		pctx := designs.WithPattern(ctx, "list")
		pages := dynamodb.NewQueryPaginator(db, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("A")}, Limit: aws.Int32(1)})
		_, err := pages.NextPage(pctx, clock.Backoff(time.Second)) // refused, then served a second later
		Expect(err).NotTo(HaveOccurred())
		_, err = pages.NextPage(pctx)
		Expect(err).NotTo(HaveOccurred())
		cut, cancel := context.WithCancel(pctx)
		cancel() // the call is cut short between its pages
		_, err = pages.NextPage(cut)
		Expect(err).To(MatchError(context.Canceled))

		Expect(counts("list")).To(Equal(PatternThrottles{Pattern: "list", Calls: 3, Attempts: 3, Retries: 1, Refused: 1}))
		Expect(e.Measured(3, time.Second).Retries).To(BeEquivalentTo(1))
	})

	Context("on a provisioned table", func() {
		BeforeEach(func() {
			// 1,000 WCU at Scale 0.001: the table's budget is 1 WCU/s, with
			// 300 s of burst, 300 units, banked at start.
			schema.Billing, schema.RCU, schema.WCU = types.BillingModeProvisioned, 1000, 1000
		})

		It("spends the banked burst, then refuses a write on a partition that still has units", func(ctx SpecContext) {
			apart("A", "B", "C", "E")
			// 299 units spent on A's and B's partitions, as the client
			// would debit them: the budget still lets a call in.
			e.Debit(table, writeCharges(keysOff(13, cfg.Partitions, "C", "E"), 23))
			Expect(put(ctx, "C", "1", "")).To(Succeed(), "one unit of the burst left")

			err := put(ctx, "E", "1", "")
			throttledAfterRetries(err, answerProvisioned, "TableWriteProvisionedThroughputExceeded", arn())
			Expect(stored(ctx, "E", "1")).To(BeFalse())
		})

		It("answers a spent partition with ProvisionedThroughputExceededException, in a provisioned table's words", func(ctx SpecContext) {
			drainWrites(ctx, "A")
			err := put(ctx, "A", "1", "")
			throttledAfterRetries(err, answerProvisioned, "TableWriteKeyRangeThroughputExceeded", arn())
			saidAsAWS(err, "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.")
			Expect(err.Error()).NotTo(ContainSubstring("automatically scaling"))
		})

		It("answers a spent GSI partition with ProvisionedThroughputExceededException, in a provisioned GSI's words", func(ctx SpecContext) {
			apart("a", "c")
			Expect(put(ctx, "a", "1", "hot")).To(Succeed())
			err := put(ctx, "c", "1", "hot")
			throttledAfterRetries(err, answerProvisioned, "IndexWriteKeyRangeThroughputExceeded", arn()+"/index/ByG")
			saidAsAWS(err, "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded.")
		})
	})

	Context("on an on-demand table with more partitions than its warm throughput needs", func() {
		BeforeEach(func() {
			// 8 partitions of 1 WCU/s, and a new table's 4 WCU/s at Scale
			// 0.001.
			cfg = Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 8}}
		})

		It("answers ThrottlingException, for the key range, once its warm throughput is spent on other partitions", func(ctx SpecContext) {
			e.Debit(table, writeCharges(keysOff(4, cfg.Partitions, "A"), 1))
			throttledAfterRetries(put(ctx, "A", "1", ""), answerOnDemand, "TableWriteKeyRangeThroughputExceeded", arn())
		})
	})

	Context("on an on-demand table with a maximum write throughput", func() {
		BeforeEach(func() {
			// At Scale 0.001: a maximum of 2 WCU/s, below the warm 4, on 8
			// partitions of 1 WCU/s.
			cfg = Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 8, MaxWrites: 2000}}
		})

		It("answers ThrottlingException, for the maximum, once the table's writes reach it, on a partition that has units", func(ctx SpecContext) {
			e.Debit(table, writeCharges(keysOff(2, cfg.Partitions, "A"), 1))
			throttledAfterRetries(put(ctx, "A", "1", ""), answerOnDemand, "TableWriteMaxOnDemandThroughputExceeded", arn())
			Expect(stored(ctx, "A", "1")).To(BeFalse())
			_, err := get(ctx, "A", "1")
			Expect(err).NotTo(HaveOccurred(), "reads have no maximum")
		})
	})

	Context("on an on-demand table warm at its account quota", func() {
		BeforeEach(func() {
			// 40,000 WCU warm, the quota, at Scale 0.0001: the table serves
			// 4 WCU/s, and a partition 0.1.
			cfg = Config{Settings: throughput.Settings{Scale: 0.0001, Partitions: 64, WarmWrites: 40000}}
		})

		It("answers RequestLimitExceeded for the account limit once the table's throughput is spent", func(ctx SpecContext) {
			// 8 units on 8 partitions, none of them A's.
			e.Debit(table, writeCharges(keysOff(8, cfg.Partitions, "A"), 1))

			err := put(ctx, "A", "1", "")
			throttledAfterRetries(err, answerAccount, "TableWriteAccountLimitExceeded", arn())
			Expect(stored(ctx, "A", "1")).To(BeFalse())
		})
	})
})
