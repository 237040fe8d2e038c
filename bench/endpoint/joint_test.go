package endpoint

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

var _ = Describe("calls naming two tables, and PartiQL batches, through the endpoint", Label("wire"), func() {
	var (
		h      *Handler
		db     *dynamodb.Client // the end client, through the endpoint, one attempt a call
		direct *dynamodb.Client
		one    string // two tables, each with its own emulator
		two    string
	)
	const partitions = 4
	BeforeEach(func(ctx SpecContext) {
		// 0.001: a partition serves 3 read and 1 write unit per second,
		// and the clock stands still, so nothing comes back.
		h = New(Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 0.001, Partitions: partitions}, Now: ddbtest.NewClock().Now}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		db = testbed.Client(srv.URL, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		direct = testbed.Client(local)
		one = designs.TableName("joint-one", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		two = designs.TableName("joint-two", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		// Both made, and deleted, at once: each waits on DynamoDB Local alone.
		both := func(f func(t string) error) error {
			var errs [2]error
			var wg sync.WaitGroup
			for i, t := range []string{one, two} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = f(t)
				}()
			}
			wg.Wait()
			return errors.Join(errs[:]...)
		}
		DeferCleanup(func(ctx SpecContext) {
			Expect(both(func(t string) error { return designs.DeleteTable(ctx, direct, t) })).To(Succeed())
		})
		Expect(both(func(t string) error { return designs.CreateTable(ctx, db, schema, t) })).To(Succeed())
		seen := map[int]string{}
		for _, k := range []string{"A", "B", "C"} {
			p := emulate.Placement(k, partitions)
			Expect(seen).NotTo(HaveKey(p), "%s shares partition %d with %s", k, p, seen[p])
			seen[p] = k
		}
	})
	put := func(ctx SpecContext, table, pk, sk string) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(pk, sk)})
		return err
	}
	stored := func(ctx SpecContext, table, pk, sk string) bool {
		GinkgoHelper()
		out, err := direct.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(pk, sk), ConsistentRead: aws.Bool(true)})
		Expect(err).NotTo(HaveOccurred())
		return len(out.Item) > 0
	}
	canonical := func(items ...map[string]types.AttributeValue) []any {
		var out []any
		for _, it := range items {
			out = append(out, ddbitem.CanonicalJSON(it))
		}
		return out
	}
	undecided := func() int64 { return h.Status().Undecided }

	It("admits a batch write's items on each table by that table's own limits, and hands back each table's refused items as its UnprocessedItems", func(ctx SpecContext) {
		Expect(put(ctx, one, "A", "0")).To(Succeed()) // A's one write unit on the first table only
		puts := func(keys ...[2]string) []types.WriteRequest {
			var reqs []types.WriteRequest
			for _, k := range keys {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: itemAt(k[0], k[1])}})
			}
			return reqs
		}
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			one: puts([2]string{"A", "1"}, [2]string{"B", "1"}), two: puts([2]string{"A", "1"}, [2]string{"C", "1"})},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.UnprocessedItems).To(HaveLen(1), "only the first table refused an item")
		var back []any
		for _, w := range out.UnprocessedItems[one] {
			back = append(back, ddbitem.CanonicalJSON(w.PutRequest.Item))
		}
		Expect(back).To(Equal(canonical(itemAt("A", "1"))))
		Expect(out.ConsumedCapacity).To(HaveLen(2), "the capacity of each table's items written, as asked")
		Expect(stored(ctx, one, "A", "1")).To(BeFalse())
		Expect(stored(ctx, one, "B", "1")).To(BeTrue())
		Expect(stored(ctx, two, "A", "1")).To(BeTrue(), "A has its unit on the second table")
		Expect(stored(ctx, two, "C", "1")).To(BeTrue())
		// Metered on each table: A's unit on the second table is spent now.
		Expect(put(ctx, two, "A", "2")).To(MatchError(ContainSubstring("ThrottlingException")))
		Expect(undecided()).To(BeZero())
		Expect(h.Status().Throttled).To(BeEquivalentTo(2), "the batch with an item unprocessed, and the last put")
	})

	It("refuses a batch get whole when every table's keys are refused, and hands back the keys of a spent partition as UnprocessedKeys", func(ctx SpecContext) {
		for _, t := range []string{one, two} {
			Expect(put(ctx, t, "A", "1")).To(Succeed())
			for range 3 { // A's 3 read units, a strongly consistent read of a small item 1 each
				_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t), Key: itemAt("A", "1"), ConsistentRead: aws.Bool(true)})
				Expect(err).NotTo(HaveOccurred())
			}
		}
		Expect(put(ctx, two, "B", "1")).To(Succeed())
		keys := func(ks ...string) types.KeysAndAttributes {
			var ka types.KeysAndAttributes
			for _, k := range ks {
				ka.Keys = append(ka.Keys, itemAt(k, "1"))
			}
			ka.ConsistentRead = aws.Bool(true)
			return ka
		}
		_, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{one: keys("A"), two: keys("A")}})
		var te *types.ThrottlingException
		Expect(errors.As(err, &te)).To(BeTrue(), "no key can be read on any table: got %v", err)

		out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{one: keys("A"), two: keys("A", "B")}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Responses[two]).To(HaveLen(1))
		Expect(ddbitem.CanonicalJSON(out.Responses[two][0])).To(Equal(ddbitem.CanonicalJSON(itemAt("B", "1"))))
		Expect(out.UnprocessedKeys).To(HaveKey(one))
		Expect(out.UnprocessedKeys).To(HaveKey(two))
		Expect(canonical(out.UnprocessedKeys[one].Keys...)).To(Equal(canonical(itemAt("A", "1"))))
		Expect(canonical(out.UnprocessedKeys[two].Keys...)).To(Equal(canonical(itemAt("A", "1"))))
		Expect(undecided()).To(BeZero())
	})

	It("cancels a transaction (PartiQL's too) whole when one table's partition is spent, with a reason per action, and charges the other table nothing", func(ctx SpecContext) {
		Expect(put(ctx, two, "A", "0")).To(Succeed()) // A's one write unit on the second table
		_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(one), Item: itemAt("B", "1")}},
			{Put: &types.Put{TableName: aws.String(two), Item: itemAt("A", "1")}},
			{Put: &types.Put{TableName: aws.String(one), Item: itemAt("C", "1")}}}})
		var tce *types.TransactionCanceledException
		Expect(errors.As(err, &tce)).To(BeTrue(), "got %v", err)
		var codes []string
		for _, r := range tce.CancellationReasons {
			codes = append(codes, aws.ToString(r.Code))
		}
		Expect(codes).To(Equal([]string{"None", "ThrottlingError", "None"}))
		Expect(aws.ToString(tce.CancellationReasons[1].Message)).To(HavePrefix("Throughput exceeds the current capacity of your table or index"))
		Expect(stored(ctx, one, "B", "1")).To(BeFalse(), "the transaction wrote nothing")
		Expect(stored(ctx, one, "C", "1")).To(BeFalse())
		// B's and C's write units on the first table are untouched: a
		// transactional put costs 2, which would have left them in debt.
		Expect(put(ctx, one, "B", "2")).To(Succeed())
		Expect(put(ctx, one, "C", "2")).To(Succeed())

		_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(one), Item: itemAt("A", "1")}},
			{Put: &types.Put{TableName: aws.String(two), Item: itemAt("B", "1")}}}})
		Expect(err).NotTo(HaveOccurred(), "both tables admit it")
		Expect(stored(ctx, one, "A", "1")).To(BeTrue())
		Expect(stored(ctx, two, "B", "1")).To(BeTrue())

		// PartiQL's alike: C's unit is spent on the first table, not on
		// the second.
		_, err = db.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
			{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'PK': 'C', 'SK': '1'}`, two))},
			{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'PK': 'C', 'SK': '5'}`, one))}}})
		Expect(errors.As(err, &tce)).To(BeTrue(), "got %v", err)
		Expect([]string{aws.ToString(tce.CancellationReasons[0].Code), aws.ToString(tce.CancellationReasons[1].Code)}).To(Equal([]string{"None", "ThrottlingError"}))
		Expect(stored(ctx, two, "C", "1")).To(BeFalse())
		Expect(put(ctx, two, "C", "2")).To(Succeed(), "C's unit on the second table untouched")
		Expect(undecided()).To(BeZero())
	})

	It("answers a transaction's reads on two tables and meters each on its own table", func(ctx SpecContext) {
		Expect(put(ctx, one, "A", "1")).To(Succeed())
		Expect(put(ctx, two, "A", "1")).To(Succeed())
		get := &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String(one), Key: itemAt("A", "1")}},
			{Get: &types.Get{TableName: aws.String(two), Key: itemAt("A", "1")}}}}
		out, err := db.TransactGetItems(ctx, get)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Responses).To(HaveLen(2))
		Expect(canonical(out.Responses[0].Item, out.Responses[1].Item)).To(Equal(canonical(itemAt("A", "1"), itemAt("A", "1"))))
		// A transactional read costs 2 of A's 3 units on each table: the
		// next one has 1 unit left and goes into debt, the third is refused.
		_, err = db.TransactGetItems(ctx, get)
		Expect(err).NotTo(HaveOccurred())
		_, err = db.TransactGetItems(ctx, get)
		var tce *types.TransactionCanceledException
		Expect(errors.As(err, &tce)).To(BeTrue(), "got %v", err)
		Expect([]string{aws.ToString(tce.CancellationReasons[0].Code), aws.ToString(tce.CancellationReasons[1].Code)}).To(Equal([]string{"ThrottlingError", "ThrottlingError"}))
		Expect(undecided()).To(BeZero())
	})

	It("answers a PartiQL batch's statement on a spent partition with a throttling Error in its place, and runs the others", func(ctx SpecContext) {
		Expect(put(ctx, one, "A", "0")).To(Succeed()) // A's one write unit on the first table
		stmt := func(s, table string) types.BatchStatementRequest {
			return types.BatchStatementRequest{Statement: aws.String(fmt.Sprintf(s, table))}
		}
		out, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			stmt(`INSERT INTO "%s" VALUE {'PK': 'B', 'SK': '1'}`, one),
			stmt(`INSERT INTO "%s" VALUE {'PK': 'A', 'SK': '1'}`, one),
			stmt(`INSERT INTO "%s" VALUE {'PK': 'A', 'SK': '1'}`, two)}})
		Expect(err).NotTo(HaveOccurred(), "an HTTP 200, the refusal in the statement's response")
		Expect(out.Responses).To(HaveLen(3))
		Expect(out.Responses[0].Error).To(BeNil())
		Expect(out.Responses[2].Error).To(BeNil())
		Expect(out.Responses[1].Error).NotTo(BeNil())
		Expect(out.Responses[1].Error.Code).To(Equal(types.BatchStatementErrorCodeEnumThrottlingError))
		Expect(aws.ToString(out.Responses[1].TableName)).To(Equal(one))
		Expect(stored(ctx, one, "B", "1")).To(BeTrue())
		Expect(stored(ctx, one, "A", "1")).To(BeFalse())
		Expect(stored(ctx, two, "A", "1")).To(BeTrue())

		read, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			stmt(`SELECT * FROM "%s" WHERE PK = 'B' AND SK = '1'`, one), stmt(`SELECT * FROM "%s" WHERE PK = 'A' AND SK = '1'`, two)}})
		Expect(err).NotTo(HaveOccurred())
		Expect(canonical(read.Responses[0].Item, read.Responses[1].Item)).To(Equal(canonical(itemAt("B", "1"), itemAt("A", "1"))))

		// A statement that names no single item, or that the endpoint
		// cannot read, is answered by Local in its place; the others are
		// decided, and nothing passes undecided.
		mixed, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			stmt(`SELECT * FROM "%s" WHERE PK = 'B'`, one), stmt(`SELECT * FROM "%s" WHERE PK = 'A' AND SK = '1'`, two), stmt(`SELEKT * FROM "%s"`, one)}})
		Expect(err).NotTo(HaveOccurred())
		Expect(mixed.Responses).To(HaveLen(3))
		for _, i := range []int{0, 2} {
			Expect(mixed.Responses[i].Error).NotTo(BeNil())
			Expect(mixed.Responses[i].Error.Code).To(Equal(types.BatchStatementErrorCodeEnumValidationError))
		}
		Expect(mixed.Responses[1].Error).To(BeNil())
		Expect(canonical(mixed.Responses[1].Item)).To(Equal(canonical(itemAt("A", "1"))))
		Expect(undecided()).To(BeZero())
	})
})
