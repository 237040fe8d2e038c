package served_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/served"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var wireSchema = designs.Schema{PK: "PK", SK: "SK"}

// DynamoDB Local never throttles: the limits emulator answers refused
// attempts with DynamoDB's own errors, in the deserialize step, and the
// observer must count them as it would count AWS's.
var _ = Describe("what the service answered, on the wire", Label("wire"), func() {
	var (
		e     *emulate.Emulator
		obs   *served.Observer
		db    *meter.Client
		clock *ddbtest.Clock
		table string
	)
	BeforeEach(func(ctx SpecContext) {
		clock = ddbtest.NewClock()
		// Scale 0.001 on one partition: the table serves 1 write unit a
		// second, so while the clock stands still a second small put is
		// refused, and so is every retry of it.
		e = emulate.New(wireSchema, emulate.Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 1}, Now: clock.Now})
		obs = served.New()
		db = e.Client(dynamodb.New(raw.Options(), ddbtest.QuickRetries, observed(obs)))
		table = designs.TableName("served", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, raw, wireSchema, table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, table)).To(Succeed()) })
		e.Enable()
		obs.Enable()
	})

	put := func(ctx context.Context, pk, sk string, opts ...func(*dynamodb.Options)) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(pk, sk)}, opts...)
		return err
	}
	arn := func() string { return "arn:aws:dynamodb:ddblocal:000000000000:table/" + table }

	It("counts a call DynamoDB served as one attempt, none throttled", func(ctx SpecContext) {
		Expect(put(designs.WithPattern(ctx, "put"), "A", "1")).To(Succeed())
		s := obs.Summary()
		Expect(s.Patterns).To(Equal([]served.PatternCalls{{Pattern: "put", Operation: "PutItem", Counts: served.Counts{Calls: 1, Attempts: 1}}}))
		Expect(s.Counts).To(Equal(served.Counts{Calls: 1, Attempts: 1}))
		Expect(s.Reasons).To(BeEmpty())
	})

	It("counts every attempt of a write refused on a drained partition, with the reason and resource DynamoDB named", func(ctx SpecContext) {
		pctx := designs.WithPattern(ctx, "put")
		Expect(put(pctx, "A", "0")).To(Succeed(), "spends the partition's unit")
		err := put(pctx, "A", "1")

		// The table is on demand: a key range refused answers ThrottlingException.
		var pte *types.ThrottlingException
		Expect(errors.As(err, &pte)).To(BeTrue(), "want ThrottlingException, got %v", err)
		Expect(pte.ThrottlingReasons).To(HaveLen(1))
		sent := pte.ThrottlingReasons[0]
		Expect(aws.ToString(sent.Reason)).To(Equal("TableWriteKeyRangeThroughputExceeded"))
		Expect(aws.ToString(sent.Resource)).To(Equal(arn()))

		s := obs.Summary()
		// The SDK's retryer made three attempts of the refused call: the
		// retries show as attempts beyond the calls.
		Expect(rowOf(s, "put", "PutItem").Counts).To(Equal(served.Counts{Calls: 2, Attempts: 4, ThrottledAttempts: 3, ThrottledCalls: 1}))
		Expect(s.Reasons).To(Equal([]served.Reason{{Exception: "ThrottlingException",
			Reason: aws.ToString(sent.Reason), Resource: aws.ToString(sent.Resource), Count: 3}}))
	})

	It("counts a write served on the SDK's retry as throttled once, not as ended throttled", func(ctx SpecContext) {
		pctx := designs.WithPattern(ctx, "put")
		Expect(put(pctx, "A", "0")).To(Succeed())
		Expect(put(pctx, "A", "1", clock.Backoff(time.Second))).To(Succeed(), "the partition refilled during the backoff")
		Expect(rowOf(obs.Summary(), "put", "PutItem").Counts).To(Equal(served.Counts{Calls: 2, Attempts: 3, ThrottledAttempts: 1}))
	})

	It("records a transaction cancelled for throttling as TransactionCanceledException with ThrottlingError, which the SDK does not retry", func(ctx SpecContext) {
		Expect(put(ctx, "A", "0")).To(Succeed())
		tctx := designs.WithPattern(ctx, "tx")
		_, err := db.TransactWriteItems(tctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(table), Item: itemAt("A", "1")}},
		}})
		Expect(designs.CancelledForCapacity(err)).To(BeTrue(), "want a transaction cancelled for throttling, got %v", err)

		s := obs.Summary()
		Expect(rowOf(s, "tx", "TransactWriteItems").Counts).To(Equal(served.Counts{Calls: 1, Attempts: 1, ThrottledAttempts: 1, ThrottledCalls: 1}))
		Expect(s.Reasons).To(Equal([]served.Reason{{Exception: "TransactionCanceledException", Reason: "ThrottlingError", Count: 1}}))
	})

	It("counts nothing while disabled, and counts a call once enabled again", func(ctx SpecContext) {
		obs.Disable()
		pctx := designs.WithPattern(ctx, "put")
		Expect(put(pctx, "A", "0")).To(Succeed())
		Expect(put(pctx, "A", "1")).NotTo(Succeed())
		Expect(obs.Summary()).To(Equal(served.Summary{}))

		obs.Enable()
		Expect(put(pctx, "A", "2")).NotTo(Succeed())
		Expect(obs.Summary().Counts).To(Equal(served.Counts{Calls: 1, Attempts: 3, ThrottledAttempts: 3, ThrottledCalls: 1}))
	})

	It("keys calls by pattern and operation, a call made outside a pattern under the empty pattern", func(ctx SpecContext) {
		Expect(put(designs.WithPattern(ctx, "put"), "A", "0")).To(Succeed())
		clock.Add(time.Second)
		_, err := db.GetItem(designs.WithPattern(ctx, "get"), &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt("A", "0")})
		Expect(err).NotTo(HaveOccurred())
		Expect(put(ctx, "A", "1")).To(Succeed())
		s := obs.Summary()
		Expect(s.Patterns).To(Equal([]served.PatternCalls{
			{Pattern: "", Operation: "PutItem", Counts: served.Counts{Calls: 1, Attempts: 1}},
			{Pattern: "get", Operation: "GetItem", Counts: served.Counts{Calls: 1, Attempts: 1}},
			{Pattern: "put", Operation: "PutItem", Counts: served.Counts{Calls: 1, Attempts: 1}},
		}))
		Expect(s.Counts).To(Equal(served.Counts{Calls: 3, Attempts: 3}))
	})
})
