package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// schema is the specs' table: on demand, keys PK and SK.
var schema = designs.Schema{PK: "PK", SK: "SK"}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func itemAt(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
}

var _ = Describe("an SDK client through the endpoint", Label("wire"), func() {
	var (
		clock    *ddbtest.Clock
		cfg      Config
		sc       designs.Schema
		db       *dynamodb.Client // the end client, through the endpoint, with the SDK's retryer
		endpoint string           // the endpoint's URL
		h        *Handler
		direct   *dynamodb.Client // DynamoDB Local itself
		table    string
	)
	BeforeEach(func() {
		clock = ddbtest.NewClock()
		sc = schema
		// 0.001: a partition serves 3 read and 1 write unit per second,
		// and the clock stands still, so nothing comes back.
		cfg = Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 4}}}
	})
	JustBeforeEach(func(ctx SpecContext) {
		cfg.Limits.Now = clock.Now
		h = New(cfg)
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		endpoint = srv.URL
		db = testbed.Client(srv.URL, ddbtest.QuickRetries)
		direct = testbed.Client(local)
		table = designs.TableName("endpoint", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		// Created through the endpoint: its limits are learnt from the
		// client's own CreateTable.
		Expect(designs.CreateTable(ctx, db, sc, table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed()) })
	})

	seed := func(ctx SpecContext, keys ...[2]string) {
		GinkgoHelper()
		for _, k := range keys {
			_, err := direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(k[0], k[1])})
			Expect(err).NotTo(HaveOccurred())
		}
	}
	get := func(ctx context.Context, c *dynamodb.Client, pk, sk string) (*dynamodb.GetItemOutput, error) {
		return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(pk, sk), ConsistentRead: aws.Bool(true)})
	}
	stored := func(ctx SpecContext, pk, sk string) bool {
		GinkgoHelper()
		out, err := get(ctx, direct, pk, sk)
		Expect(err).NotTo(HaveOccurred())
		return len(out.Item) > 0
	}
	apart := func(keys ...string) {
		GinkgoHelper()
		seen := map[int]string{}
		for _, k := range keys {
			p := emulate.Placement(k, cfg.Limits.Partitions)
			Expect(seen).NotTo(HaveKey(p), "%s shares partition %d with %s", k, p, seen[p])
			seen[p] = k
		}
	}
	arn := func() string { return "arn:aws:dynamodb:ddblocal:000000000000:table/" + table }

	Context("under DynamoDB's own limits", func() {
		BeforeEach(func() { cfg.Limits.Scale = 1 })
		It("answers reads and writes as DynamoDB Local does, with only what the client asked for", func(ctx SpecContext) {
			seed(ctx, [2]string{"A", "1"}, [2]string{"A", "2"})
			item := map[string]types.AttributeValue{"PK": str("A"), "SK": str("3"), "n": &types.AttributeValueMemberN{Value: "1.50"},
				"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberB{Value: []byte{0, 1}}, &types.AttributeValueMemberNULL{Value: true}}},
				"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}}}}
			put, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
			Expect(err).NotTo(HaveOccurred())
			Expect(put.Attributes).To(BeNil(), "the client asked for no old image")
			Expect(put.ConsumedCapacity).To(BeNil(), "nor for its capacity")

			up, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: itemAt("A", "3"),
				UpdateExpression: aws.String("SET n = n + :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
				ReturnValues: types.ReturnValueUpdatedNew, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			Expect(err).NotTo(HaveOccurred())
			Expect(ddbitem.CanonicalJSON(up.Attributes)).To(Equal(ddbitem.CanonicalJSON(map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "2.5"}})))
			Expect(up.ConsumedCapacity).NotTo(BeNil(), "the client asked for its capacity")
			Expect(up.ConsumedCapacity.GlobalSecondaryIndexes).To(BeNil(), "TOTAL, not the INDEXES the meter asks")

			query := &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :pk"), Limit: aws.Int32(2),
				ProjectionExpression: aws.String("SK, n"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("A")}}
			want, err := direct.Query(ctx, query)
			Expect(err).NotTo(HaveOccurred())
			got, err := db.Query(ctx, query)
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Count).To(Equal(want.Count))
			Expect(got.ScannedCount).To(Equal(want.ScannedCount))
			Expect(ddbitem.CanonicalJSON(got.LastEvaluatedKey)).To(Equal(ddbitem.CanonicalJSON(want.LastEvaluatedKey)))
			Expect(got.Items).To(HaveLen(len(want.Items)))
			for i := range want.Items {
				Expect(ddbitem.CanonicalJSON(got.Items[i])).To(Equal(ddbitem.CanonicalJSON(want.Items[i])), "item %d, projected as asked", i)
			}

			whole, err := get(ctx, db, "A", "3")
			Expect(err).NotTo(HaveOccurred())
			item["n"] = &types.AttributeValueMemberN{Value: "2.5"}
			Expect(ddbitem.CanonicalJSON(whole.Item)).To(Equal(ddbitem.CanonicalJSON(item)))

			cond := &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt("A", "1"), ConditionExpression: aws.String("attribute_not_exists(PK)")}
			_, err = db.PutItem(ctx, cond)
			var ccf *types.ConditionalCheckFailedException
			Expect(errors.As(err, &ccf)).To(BeTrue(), "got %v", err)
			Expect(ccf.Item).To(BeNil(), "the client did not ask for the item on failure")
			cond.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
			_, err = db.PutItem(ctx, cond)
			Expect(errors.As(err, &ccf)).To(BeTrue(), "got %v", err)
			Expect(ddbitem.CanonicalJSON(ccf.Item)).To(Equal(ddbitem.CanonicalJSON(itemAt("A", "1"))))
		})
	})

	It("decides a call naming its table by ARN on the table's own budget", func(ctx SpecContext) {
		seed(ctx, [2]string{"A", "1"})
		for range 3 { // a partition's 3 read units, spent by name
			_, err := get(ctx, db, "A", "1")
			Expect(err).NotTo(HaveOccurred())
		}
		_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(arn()), Key: itemAt("A", "1"), ConsistentRead: aws.Bool(true)})
		var te *types.ThrottlingException
		Expect(errors.As(err, &te)).To(BeTrue(), "by ARN, the same partition with nothing left: got %v", err)
		Expect(aws.ToString(te.ThrottlingReasons[0].Resource)).To(Equal(arn()))
	})

	It("throttles a hot key with ThrottlingReasons naming its key range, which the client's retryer retries, and serves a key on another partition", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, [2]string{"A", "1"}, [2]string{"B", "1"})
		for range 3 { // a partition's 3 read units: a strongly consistent read of a small item costs 1
			_, err := get(ctx, db, "A", "1")
			Expect(err).NotTo(HaveOccurred())
		}
		_, err := get(ctx, db, "A", "1")
		var te *types.ThrottlingException
		Expect(errors.As(err, &te)).To(BeTrue(), "got %v", err)
		Expect(te.ThrottlingReasons).To(HaveLen(1))
		Expect(aws.ToString(te.ThrottlingReasons[0].Reason)).To(Equal("TableReadKeyRangeThroughputExceeded"))
		Expect(aws.ToString(te.ThrottlingReasons[0].Resource)).To(Equal(arn()))
		var gaveUp *retry.MaxAttemptsError
		Expect(errors.As(err, &gaveUp)).To(BeTrue(), "the client's own retryer retried and gave up: %v", err)

		out, err := get(ctx, db, "B", "1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Item).To(HaveKey("PK"))
	})

	It("refuses the same calls as the bench's middleware does on the same workload", func(ctx SpecContext) {
		// The middleware: the emulator installed on an SDK client of Local,
		// on a table of its own, with a clock of its own moved alike.
		mclock := ddbtest.NewClock()
		mcfg := cfg.Limits
		mcfg.Now = mclock.Now
		em := emulate.New(sc, mcfg)
		mtable := designs.TableName("endpoint-mw", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, direct, sc, mtable)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, mtable)).To(Succeed()) })
		mw := em.Client(dynamodb.New(direct.Options(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }))
		em.Enable()
		once := dynamodb.New(db.Options(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })

		// refused runs the workload on one side: each call's outcome,
		// "ok" or the refusal's reason.
		refused := func(table string, get func(*dynamodb.GetItemInput) error, put func(*dynamodb.PutItemInput) error, clock *ddbtest.Clock) []string {
			var got []string
			for i := range 60 {
				pk := []string{"A", "A", "B", "A", "C", "A"}[i%6]
				var err error
				if i%4 == 3 {
					err = put(&dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(pk, fmt.Sprint(i))})
				} else {
					err = get(&dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(pk, "1"), ConsistentRead: aws.Bool(true)})
				}
				var te *types.ThrottlingException
				switch {
				case err == nil:
					got = append(got, "ok")
				case errors.As(err, &te) && len(te.ThrottlingReasons) == 1:
					got = append(got, pk+" "+aws.ToString(te.ThrottlingReasons[0].Reason))
				default:
					got = append(got, err.Error())
				}
				if i%10 == 9 {
					clock.Add(time.Second)
				}
			}
			return got
		}
		viaMiddleware := refused(mtable,
			func(in *dynamodb.GetItemInput) error { _, err := mw.GetItem(ctx, in); return err },
			func(in *dynamodb.PutItemInput) error { _, err := mw.PutItem(ctx, in); return err }, mclock)
		viaEndpoint := refused(table,
			func(in *dynamodb.GetItemInput) error { _, err := once.GetItem(ctx, in); return err },
			func(in *dynamodb.PutItemInput) error { _, err := once.PutItem(ctx, in); return err }, clock)
		Expect(viaMiddleware).To(ContainElement(ContainSubstring("KeyRangeThroughputExceeded")), "the workload meets the limits")
		Expect(viaEndpoint).To(Equal(viaMiddleware))
	})

	It("answers its status document, and writes the report a bench writes for the traffic it saw, naming the hot key", func(ctx SpecContext) {
		apart("A", "B")
		seed(ctx, [2]string{"A", "1"}, [2]string{"B", "1"})
		for range 4 {
			get(ctx, db, "A", "1") // the fourth is throttled
		}
		_, err := get(ctx, db, "B", "1")
		Expect(err).NotTo(HaveOccurred())

		resp, err := http.Get(endpoint + StatusPath)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		var st Status
		Expect(json.NewDecoder(resp.Body).Decode(&st)).To(Succeed())
		Expect(st.Requests).To(BeNumerically(">=", 5))
		Expect(st.Throttled).To(BeNumerically(">=", 1))
		Expect(st.Tables).To(ConsistOf(MatchFields(IgnoreExtras, Fields{"Name": Equal(table), "Billing": Equal("PAY_PER_REQUEST"), "Scale": Equal(0.001)})))

		dirs, err := h.Report(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(dirs).To(HaveLen(1))
		summary, err := os.ReadFile(filepath.Join(dirs[0], report.SummaryFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(ContainSubstring(table))
		Expect(string(summary)).To(ContainSubstring(`The hottest partition key of the table is "A"`))
		Expect(string(summary)).To(MatchRegexp(`\| GetItem \| 429 \| ThrottlingException \| [1-9]`), "the throttled attempts, by exception")
		Expect(string(summary)).NotTo(ContainSubstring("SDK retr"), "the client's retries are out of the endpoint's sight")
		Expect(string(summary)).To(ContainSubstring("which the client retried out of sight"))
		for _, f := range []string{report.MetricsFile, report.HeatFile} {
			Expect(filepath.Join(dirs[0], f)).To(BeARegularFile())
		}
	})

	It("returns a batch write's requests on a spent partition as UnprocessedItems and writes the others", func(ctx SpecContext) {
		apart("A", "B", "C")
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt("A", "0")}) // A's one write unit
		Expect(err).NotTo(HaveOccurred())

		reqs := []types.WriteRequest{}
		for _, k := range [][2]string{{"A", "1"}, {"B", "1"}, {"A", "2"}, {"C", "1"}} {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: itemAt(k[0], k[1])}})
		}
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		Expect(err).NotTo(HaveOccurred())
		// The capacity of the items written, in TOTAL's shape, as asked.
		Expect(out.ConsumedCapacity).To(HaveLen(1))
		Expect(aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits)).To(BeNumerically("==", 2))
		Expect(out.ConsumedCapacity[0].Table).To(BeNil())
		Expect(out.UnprocessedItems).To(HaveKey(table))
		var back []any
		for _, w := range out.UnprocessedItems[table] {
			back = append(back, ddbitem.CanonicalJSON(w.PutRequest.Item))
		}
		Expect(back).To(Equal([]any{ddbitem.CanonicalJSON(itemAt("A", "1")), ddbitem.CanonicalJSON(itemAt("A", "2"))}))
		Expect(stored(ctx, "A", "1")).To(BeFalse())
		Expect(stored(ctx, "A", "2")).To(BeFalse())
		Expect(stored(ctx, "B", "1")).To(BeTrue())
		Expect(stored(ctx, "C", "1")).To(BeTrue())
	})

	Context("with a multi-attribute GSI", func() {
		BeforeEach(func() {
			sc.GSIs = []designs.Index{{Name: "ByTenantZone", PKs: []string{"tenantId", "zoneCode"}, SK: "SK"}}
		})
		putT := func(ctx SpecContext, pk, tenant, zone string) error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
				Item: map[string]types.AttributeValue{"PK": str(pk), "SK": str("1"), "tenantId": str(tenant), "zoneCode": str(zone)}})
			return err
		}
		// hotTuple checks the GSI is keyed by its tuple: the second write of
		// one tuple is refused naming the index, and a tuple that shares its
		// second value, on another partition, is served.
		hotTuple := func(ctx SpecContext) {
			GinkgoHelper()
			apart("a", "c", "e")
			apart("tenantId=t1, zoneCode=eu", "tenantId=t3, zoneCode=eu")
			Expect(putT(ctx, "a", "t1", "eu")).To(Succeed(), "the tuple's partition has its 1 write unit")
			err := putT(ctx, "c", "t1", "eu")
			var te *types.ThrottlingException
			Expect(errors.As(err, &te)).To(BeTrue(), "the same tuple, from another table partition: got %v", err)
			Expect(aws.ToString(te.ThrottlingReasons[0].Reason)).To(Equal("IndexWriteKeyRangeThroughputExceeded"))
			Expect(aws.ToString(te.ThrottlingReasons[0].Resource)).To(Equal(arn() + "/index/ByTenantZone"))
			Expect(stored(ctx, "c", "1")).To(BeFalse())
			Expect(putT(ctx, "e", "t3", "eu")).To(Succeed(), "another tuple with the same zone is another partition key")
		}
		It("keys the GSI by all of its attributes: a hot tuple is throttled naming the index, a tuple sharing one of its values is not; the report names the tuple by both values", func(ctx SpecContext) {
			hotTuple(ctx)
			dirs, err := h.Report(GinkgoT().TempDir())
			Expect(err).NotTo(HaveOccurred())
			Expect(dirs).To(HaveLen(1))
			summary, err := os.ReadFile(filepath.Join(dirs[0], report.SummaryFile))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(summary)).To(ContainSubstring("tenantId=t1, zoneCode=eu"))
		})
		It("learns a multi-attribute GSI that the client's UpdateTable adds", func(ctx SpecContext) {
			Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed())
			Expect(designs.CreateTable(ctx, db, schema, table)).To(Succeed())
			in := sc.CreateTableInput(table)
			g := in.GlobalSecondaryIndexes[0]
			_, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table), AttributeDefinitions: in.AttributeDefinitions,
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
					IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection}}}})
			Expect(err).NotTo(HaveOccurred())
			Expect(designs.WaitActive(ctx, db, table, nil)).To(Succeed())
			hotTuple(ctx)
		})
		It("refuses a Query that breaks the left-to-right rule with DynamoDB Local's ValidationException", func(ctx SpecContext) {
			in := &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("ByTenantZone"),
				KeyConditionExpression:    aws.String("tenantId = :t AND SK = :s"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":t": str("t1"), ":s": str("1")}}
			_, want := direct.Query(ctx, in)
			_, got := db.Query(ctx, in)
			var wantAPI, gotAPI smithy.APIError
			Expect(errors.As(want, &wantAPI)).To(BeTrue(), "DynamoDB Local refused it: %v", want)
			Expect(errors.As(got, &gotAPI)).To(BeTrue(), "the endpoint refused it: %v", got)
			Expect(gotAPI.ErrorCode()).To(Equal("ValidationException"))
			Expect(gotAPI.ErrorMessage()).To(Equal(wantAPI.ErrorMessage()))
			Expect(gotAPI.ErrorMessage()).To(ContainSubstring("HASH key attributes zoneCode"))
		})
	})

	Context("with a provisioned table", func() {
		BeforeEach(func() {
			sc.Billing, sc.RCU, sc.WCU = types.BillingModeProvisioned, 1, 1
			cfg.Limits.Partitions = 0
		})
		It("learns its throughput from the client's CreateTable and answers ProvisionedThroughputExceededException once its burst is spent", func(ctx SpecContext) {
			seed(ctx, [2]string{"A", "1"})
			var err error
			for range 10 { // 1 RCU at 0.001 is 0.3 units of burst: the first strongly consistent read spends it
				if _, err = get(ctx, db, "A", "1"); err != nil {
					break
				}
			}
			var pte *types.ProvisionedThroughputExceededException
			Expect(errors.As(err, &pte)).To(BeTrue(), "got %v", err)
			Expect(pte.ThrottlingReasons).To(HaveLen(1))
			Expect(aws.ToString(pte.ThrottlingReasons[0].Reason)).To(Equal("TableReadProvisionedThroughputExceeded"))
		})
	})

	Context("with a provisioned table whose GSI is provisioned below it", func() {
		BeforeEach(func() {
			// 1,000 WCU at 0.001: the table serves 1 WCU/s with 300 units
			// of burst; its GSI, at 1 WCU, 0.3 units of burst.
			sc.Billing, sc.RCU, sc.WCU = types.BillingModeProvisioned, 1000, 1000
			sc.GSIs = []designs.Index{{Name: "ByG", PK: "G"}}
		})
		putG := func(ctx SpecContext, pk, g string) error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
				Item: map[string]types.AttributeValue{"PK": str(pk), "SK": str("1"), "G": str(g)}})
			return err
		}
		// backPressured checks the GSI's own units refuse the second write
		// to the table, on partitions that all have units, naming the index.
		backPressured := func(ctx SpecContext) {
			GinkgoHelper()
			apart("a", "c")
			apart("g1", "g2")
			Expect(putG(ctx, "a", "g1")).To(Succeed(), "the GSI's burst lets one write in")
			err := putG(ctx, "c", "g2")
			var pte *types.ProvisionedThroughputExceededException
			Expect(errors.As(err, &pte)).To(BeTrue(), "the GSI's 1 WCU, not the table's 1,000: got %v", err)
			Expect(aws.ToString(pte.ThrottlingReasons[0].Reason)).To(Equal("IndexWriteProvisionedThroughputExceeded"))
			Expect(aws.ToString(pte.ThrottlingReasons[0].Resource)).To(Equal(arn() + "/index/ByG"))
			Expect(aws.ToString(pte.Message)).To(HavePrefix("The level of configured provisioned throughput for one or more global secondary indexes"))
			Expect(stored(ctx, "c", "1")).To(BeFalse())
		}

		It("learns the GSI's own units from the client's CreateTable, and throttles the table's writes at them", func(ctx SpecContext) {
			Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed())
			in := sc.CreateTableInput(table)
			in.GlobalSecondaryIndexes[0].ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
			Expect(designs.Create(ctx, db, in, nil)).To(Succeed())
			backPressured(ctx)
		})

		It("learns the GSI's own units from the client's UpdateTable", func(ctx SpecContext) {
			_, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
					IndexName: aws.String("ByG"), ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}}}})
			Expect(err).NotTo(HaveOccurred())
			backPressured(ctx)
		})
	})

	It("counts the data-plane calls it passes through undecided apart from the other calls it passes", func(ctx SpecContext) {
		other := table + "-other"
		Expect(designs.CreateTable(ctx, direct, sc, other)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, other)).To(Succeed()) })
		seed(ctx, [2]string{"A", "1"})
		_, passed, _, _ := h.Totals()

		_, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			table: {Keys: []map[string]types.AttributeValue{itemAt("A", "1")}}, other: {Keys: []map[string]types.AttributeValue{itemAt("A", "1")}}}})
		Expect(err).NotTo(HaveOccurred())
		_, err = db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			{Statement: aws.String(fmt.Sprintf(`SELECT * FROM "%s" WHERE PK = 'A' AND SK = '1'`, table))}}})
		Expect(err).NotTo(HaveOccurred())
		requests, _, _, _ := h.Totals()
		_, err = db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(`UPDATE "%s" SET n = 1 WHERE PK = 'A' OR SK = '1'`, table))})
		Expect(err).To(HaveOccurred(), "DynamoDB Local's own refusal")
		afterRefusal, _, _, _ := h.Totals()
		Expect(afterRefusal-requests).To(BeEquivalentTo(1), "the UPDATE without the whole key: refused by Local as DynamoDB refuses it, a call")
		Expect(h.Undecided()).To(BeZero(), "nothing undecided: the batch spanning tables and the PartiQL batch decided, the UPDATE refused")
		// A value in a form the endpoint does not read (a sign before
		// parentheses), which Local writes as -5.
		_, err = db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'PK': 'C', 'SK': '1', 'n': -(5)}`, table))})
		Expect(err).NotTo(HaveOccurred())
		_, err = db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		Expect(err).NotTo(HaveOccurred())

		Expect(h.Undecided()).To(BeEquivalentTo(1), "the INSERT the endpoint cannot read")
		_, after, _, _ := h.Totals()
		Expect(after-passed).To(BeEquivalentTo(1), "DescribeTable")
		Expect(h.Status().Undecided).To(BeEquivalentTo(1))
	})

	Context("PartiQL", func() {
		exec := func(ctx SpecContext, stmt string, params ...types.AttributeValue) (*dynamodb.ExecuteStatementOutput, error) {
			return db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(stmt, table)), Parameters: params, ConsistentRead: aws.Bool(true)})
		}
		It("decides an INSERT as the PutItem of its item: refused on its spent partition, written nowhere", func(ctx SpecContext) {
			_, err := exec(ctx, `INSERT INTO "%s" VALUE {'PK': 'A', 'SK': '1'}`)
			Expect(err).NotTo(HaveOccurred())
			_, err = exec(ctx, `INSERT INTO "%s" VALUE {'PK': ?, 'SK': ?, 'n': 1}`, str("A"), str("2"))
			var te *types.ThrottlingException
			Expect(errors.As(err, &te)).To(BeTrue(), "A's 1 write unit spent: got %v", err)
			Expect(aws.ToString(te.ThrottlingReasons[0].Reason)).To(Equal("TableWriteKeyRangeThroughputExceeded"))
			Expect(stored(ctx, "A", "1")).To(BeTrue())
			Expect(stored(ctx, "A", "2")).To(BeFalse())
			Expect(h.Undecided()).To(BeZero())
		})

		It("decides a SELECT of one item as its GetItem, and one of a partition as its Query, answering Local's own items", func(ctx SpecContext) {
			seed(ctx, [2]string{"A", "1"}, [2]string{"A", "2"})
			out, err := exec(ctx, `SELECT * FROM "%s" WHERE PK = ? AND SK = ?`, str("A"), str("1"))
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Items).To(HaveLen(1))
			out, err = exec(ctx, `SELECT SK FROM "%s" WHERE "PK" = 'A'`)
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Items).To(HaveLen(2))
			// 1 of A's 3 read units, and the Query's 1 (two small items are
			// 1 unit, strongly consistent); a third read spends the last.
			_, err = exec(ctx, `SELECT * FROM "%s" WHERE PK = 'A' AND SK = '2'`)
			Expect(err).NotTo(HaveOccurred())
			_, err = exec(ctx, `SELECT * FROM "%s" WHERE PK = 'A' AND SK = '2'`)
			var te *types.ThrottlingException
			Expect(errors.As(err, &te)).To(BeTrue(), "A's read units spent: got %v", err)
			Expect(aws.ToString(te.ThrottlingReasons[0].Reason)).To(Equal("TableReadKeyRangeThroughputExceeded"))
		})

		It("decides an ExecuteTransaction as the transaction of its statements: cancelled for the action on a spent partition, writing nothing", func(ctx SpecContext) {
			apart("A", "B")
			seed(ctx, [2]string{"B", "1"})
			_, err := exec(ctx, `INSERT INTO "%s" VALUE {'PK': 'A', 'SK': '0'}`) // A's one write unit
			Expect(err).NotTo(HaveOccurred())
			stmt := func(s string) types.ParameterizedStatement {
				return types.ParameterizedStatement{Statement: aws.String(fmt.Sprintf(s, table))}
			}
			_, err = db.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				stmt(`UPDATE "%s" SET n = 1 WHERE PK = 'B' AND SK = '1'`), stmt(`INSERT INTO "%s" VALUE {'PK': 'A', 'SK': '1'}`)}})
			var tce *types.TransactionCanceledException
			Expect(errors.As(err, &tce)).To(BeTrue(), "got %v", err)
			Expect(tce.CancellationReasons).To(HaveLen(2))
			Expect(aws.ToString(tce.CancellationReasons[0].Code)).To(Equal("None"))
			Expect(aws.ToString(tce.CancellationReasons[1].Code)).To(Equal("ThrottlingError"))
			Expect(stored(ctx, "A", "1")).To(BeFalse())
			out, err := get(ctx, direct, "B", "1")
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Item).NotTo(HaveKey("n"), "the transaction wrote nothing")
			Expect(h.Undecided()).To(BeZero())
		})

		It("decides an UPDATE and a DELETE naming the whole key; one that does not, Local refuses as DynamoDB does, charged nothing and not undecided", func(ctx SpecContext) {
			apart("A", "B")
			seed(ctx, [2]string{"A", "1"}, [2]string{"B", "1"})
			_, err := exec(ctx, `UPDATE "%s" SET n = 1 WHERE PK = 'A' AND SK = '1'`)
			Expect(err).NotTo(HaveOccurred())
			_, err = exec(ctx, `DELETE FROM "%s" WHERE PK = 'A' AND SK = '1'`)
			var te *types.ThrottlingException
			Expect(errors.As(err, &te)).To(BeTrue(), "A's write unit spent by the UPDATE: got %v", err)
			Expect(stored(ctx, "A", "1")).To(BeTrue())

			for _, st := range []string{`UPDATE "%s" SET n = 1 WHERE PK = 'B' OR SK = '1'`, `DELETE FROM "%s" WHERE PK = 'B'`, `EXISTS(SELECT * FROM "%s" WHERE PK = 'B' AND SK = '1')`} {
				_, err = exec(ctx, st)
				var ve smithy.APIError
				Expect(errors.As(err, &ve)).To(BeTrue(), "%s: DynamoDB Local's own refusal, got %v", st, err)
				Expect(ve.ErrorCode()).To(Equal("ValidationException"))
			}
			Expect(h.Undecided()).To(BeZero())
			_, err = exec(ctx, `UPDATE "%s" SET n = 2 WHERE PK = 'B' AND SK = '1' AND (n = 1 OR attribute_not_exists(n))`)
			Expect(err).NotTo(HaveOccurred(), "B's write unit not spent by the refusals")
			_, err = exec(ctx, `UPDATE "%s" SET n = 3 WHERE PK = 'B' AND SK = '1'`)
			Expect(errors.As(err, &te)).To(BeTrue(), "an UPDATE whose condition has an OR in parentheses decided, spending B's unit: got %v", err)
			Expect(h.Undecided()).To(BeZero())
		})
	})

	It("answers a request it cannot read as DynamoDB Local does, refuses a body over its bound in DynamoDB's shape, and serves the next call", func(ctx SpecContext) {
		raw := func(url, target string, body []byte) (int, map[string]any) {
			GinkgoHelper()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("Content-Type", "application/x-amz-json-1.0")
			req.Header.Set("X-Amz-Target", target)
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=ddbharness/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
			resp, err := http.DefaultClient.Do(req)
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			var answer map[string]any
			Expect(json.NewDecoder(resp.Body).Decode(&answer)).To(Succeed())
			return resp.StatusCode, answer
		}
		for _, c := range []struct{ target, body string }{
			{"DynamoDB_20120810.GetItem", `{"TableName": 5}`},
			{"DynamoDB_20120810.GetItem", `{"TableName": "` + table + `", "Key": {"PK": {"X": "a"}}}`},
			{"DynamoDB_20120810.PutItem", `{"TableName": "` + table + `", "Item": `},
			{"DynamoDB_20120810.NoSuchOperation", `{}`},
			// Read whole, and refused by DynamoDB Local (or by the SDK first).
			{"DynamoDB_20120810.GetItem", `{"TableName": "` + table + `"}`},
			{"DynamoDB_20120810.GetItem", `{"TableName": "` + table + `", "Key": {"PK": {"N": "1"}, "SK": {"S": "a"}}}`},
			{"DynamoDB_20120810.GetItem", `{"TableName": "no-such-table", "Key": {"PK": {"S": "a"}, "SK": {"S": "a"}}}`},
			{"DynamoDB_20120810.PutItem", `{"TableName": "` + table + `", "Item": {}}`},
			{"DynamoDB_20120810.UpdateItem", `{"TableName": "` + table + `", "Key": {"PK": {"S": "a"}}, "UpdateExpression": "SET"}`},
			{"DynamoDB_20120810.Query", `{"TableName": "` + table + `"}`},
			{"DynamoDB_20120810.Query", `{"TableName": "` + table + `", "KeyConditionExpression": "SK = :v", "ExpressionAttributeValues": {":v": {"S": "a"}}}`},
			{"DynamoDB_20120810.Scan", `{"TableName": "` + table + `", "IndexName": "NoSuchIndex"}`},
			{"DynamoDB_20120810.BatchGetItem", `{"RequestItems": {}}`},
			{"DynamoDB_20120810.BatchWriteItem", `{"RequestItems": {"` + table + `": [{}]}}`},
			{"DynamoDB_20120810.TransactWriteItems", `{"TransactItems": []}`},
			{"DynamoDB_20120810.TransactWriteItems", `{"TransactItems": [{"Put": {"TableName": "` + table + `", "Item": {"PK": {"S": "a"}}}}]}`},
			{"DynamoDB_20120810.TransactGetItems", `{"TransactItems": [{"Get": {"TableName": "` + table + `", "Key": {}}}]}`},
		} {
			wantCode, want := raw(local, c.target, []byte(c.body))
			code, got := raw(endpoint, c.target, []byte(c.body))
			Expect(code).To(Equal(wantCode), "%s %s", c.target, c.body)
			Expect(got["__type"]).To(Equal(want["__type"]), "%s %s", c.target, c.body)
		}
		code, _ := raw(endpoint, "DynamoDB_20120810.PutItem", make([]byte, MaxBody+1))
		Expect(code).To(Equal(http.StatusRequestEntityTooLarge), "DynamoDB's 413 for a body over 16 MiB")

		seed(ctx, [2]string{"A", "1"})
		_, err := get(ctx, db, "A", "1")
		Expect(err).NotTo(HaveOccurred())
	})

	Context("with limits off", func() {
		BeforeEach(func() { cfg.Off = true })
		It("passes every call through", func(ctx SpecContext) {
			seed(ctx, [2]string{"A", "1"})
			for range 10 {
				_, err := get(ctx, db, "A", "1")
				Expect(err).NotTo(HaveOccurred())
			}
		})
	})

	Context("with the limits scaled 100 times", func() {
		// So that no partition's or item's throughput comes near: the
		// transactions' hold on their item, which no scale moves, is all
		// that can come first.
		BeforeEach(func() { cfg.Limits.Scale = 100 })
		It("reports the conflict limit first when every transaction writes one item, as a bench's report does", func(ctx SpecContext) {
			for i := range 20 {
				_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String(table), Key: itemAt("A", "1"), UpdateExpression: aws.String("SET v = :v"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":v": str(fmt.Sprint(i))}}}}})
				Expect(err).NotTo(HaveOccurred())
			}
			h.mu.Lock()
			t := h.tables[table]
			h.mu.Unlock()
			out, ok := h.outcome(t)
			Expect(ok).To(BeTrue())
			first := out.Capacity.FirstLimit
			Expect(first).NotTo(BeNil())
			Expect(*first).To(MatchFields(IgnoreExtras, Fields{"Kind": Equal(capacity.LimitConflict), "Item": Equal("A / 1"),
				"Pattern": Equal(designs.PatternID("TransactWriteItems")), "HoldSeconds": BeNumerically(">", 0)}))
			Expect(report.Headline(out)).To(ContainSubstring("first limit: conflict limit on item A / 1"))
		})
	})

	Context("with a transaction in flight", func() {
		var hold *holdFirst
		BeforeEach(func() {
			cfg.Limits.Scale = 1 // units to spare: only the conflict refuses
			hold = &holdFirst{target: "DynamoDB_20120810.TransactWriteItems", next: http.DefaultClient, entered: make(chan struct{}), open: make(chan struct{})}
			cfg.HTTPClient = hold
			DeferCleanup(hold.release)
		})
		It("cancels a second transaction on the same item for a TransactionConflict, and commits the first", func(ctx SpecContext) {
			tx := func(ctx context.Context, v string) error {
				_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String(table), Key: itemAt("A", "1"), UpdateExpression: aws.String("SET v = :v"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":v": str(v)}}},
					{Put: &types.Put{TableName: aws.String(table), Item: itemAt("A", "other-"+v)}}}})
				return err
			}
			first := make(chan error, 1)
			go func() { first <- tx(ctx, "first") }()
			Eventually(hold.entered).WithTimeout(10 * time.Second).Should(BeClosed())

			err := tx(ctx, "second")
			var tce *types.TransactionCanceledException
			Expect(errors.As(err, &tce)).To(BeTrue(), "got %v", err)
			Expect(tce.CancellationReasons).To(HaveLen(2))
			Expect(aws.ToString(tce.CancellationReasons[0].Code)).To(Equal("TransactionConflict"))

			hold.release()
			Eventually(first).WithTimeout(10 * time.Second).Should(Receive(BeNil()))
			Expect(stored(ctx, "A", "other-first")).To(BeTrue())
			Expect(stored(ctx, "A", "other-second")).To(BeFalse())
			_, _, throttled, conflicts := h.Totals()
			Expect([]int64{throttled, conflicts}).To(Equal([]int64{0, 1}), "counted a conflict, not a throttle")
		})
	})
})

// holdFirst holds the first request of one X-Amz-Target in flight until
// release; every other goes on at once.
type holdFirst struct {
	target  string
	next    Doer
	entered chan struct{}
	open    chan struct{}
	held    atomicOnce
	opened  atomicOnce
}

func (h *holdFirst) Do(r *http.Request) (*http.Response, error) {
	if r.Header.Get("X-Amz-Target") == h.target && h.held.first() {
		close(h.entered)
		select {
		case <-h.open:
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	return h.next.Do(r)
}

func (h *holdFirst) release() {
	if h.opened.first() {
		close(h.open)
	}
}
