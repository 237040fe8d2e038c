package faults_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// Each fault kind as the AWS SDK for Go v2 sees it: the error type, its
// members, and whether the SDK's standard retryer retries it. The
// endpoint runs in this process, in front of its shared DynamoDB Local,
// its rules aimed spec by spec (Handler.Aim), as a test harness would.
var _ = Describe("fault rules, as the Go SDK sees them", Label("faults"), Ordered, ContinueOnFailure, SpecPriority(1), func() {
	schema := designs.Schema{PK: "PK", SK: "SK"}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	itemAt := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
	}
	var (
		h        *endpoint.Handler
		once     *dynamodb.Client // one attempt: the fault's own answer
		retrying *dynamodb.Client
		direct   *dynamodb.Client
		table    string
		url      string
	)
	BeforeAll(func(ctx SpecContext) {
		local := shared(ctx)
		// The limits on at DynamoDB's own figures: the rules compose with
		// them, and nothing here comes near a limit.
		h = endpoint.New(endpoint.Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 1}}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		url = srv.URL
		once = testbed.Client(srv.URL, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		retrying = testbed.Client(srv.URL, ddbtest.QuickRetries)
		direct = testbed.Client(local)
		table = designs.TableName("faults", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, direct, schema, table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed()) })
	})
	aim := func(rules ...string) {
		GinkgoHelper()
		var rs []fault.Rule
		for _, s := range rules {
			r, err := fault.Parse(s)
			Expect(err).NotTo(HaveOccurred())
			rs = append(rs, r)
		}
		h.Aim(fault.NewSet(1, rs...))
		DeferCleanup(func() { h.Aim(nil) })
	}
	retryable := func(err error) bool { return retry.NewStandard().IsErrorRetryable(err) }
	get := func(ctx context.Context, c *dynamodb.Client, pk string) (*dynamodb.GetItemOutput, error) {
		return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(pk, "1"), ConsistentRead: aws.Bool(true)})
	}
	stored := func(ctx SpecContext, pk string) bool {
		GinkgoHelper()
		out, err := get(ctx, direct, pk)
		Expect(err).NotTo(HaveOccurred())
		return len(out.Item) > 0
	}

	DescribeTable("a throttling fault: the exception with its reason, retried by the SDK",
		func(ctx SpecContext, kind string, as func(error) []types.ThrottlingReason, reason string) {
			aim("op=GetItem key=PK:hot first=2 error=" + kind)
			_, err := get(ctx, once, "hot")
			Expect(err).To(HaveOccurred())
			reasons := as(err)
			Expect(reasons).To(HaveLen(1), "%v", err)
			Expect(aws.ToString(reasons[0].Reason)).To(Equal(reason))
			Expect(aws.ToString(reasons[0].Resource)).To(Equal("arn:aws:dynamodb:ddblocal:000000000000:table/" + table))
			var re *awshttp.ResponseError
			Expect(errors.As(err, &re)).To(BeTrue())
			Expect(re.HTTPStatusCode()).To(Equal(http.StatusBadRequest))
			Expect(retryable(err)).To(BeTrue(), "the SDK's standard retryer retries %s", kind)

			_, err = get(ctx, retrying, "hot") // the second hit, then the call
			Expect(err).NotTo(HaveOccurred(), "retried past the rule's two hits")
			Expect(h.Status().Faults).To(Equal([]fault.RuleStatus{{Rule: "op=GetItem key=PK:hot first=2 error=" + kind, Matched: 3, Hits: 2}}))
			_, err = get(ctx, once, "cold")
			Expect(err).NotTo(HaveOccurred(), "another key is not aimed at")
		},
		Entry("ThrottlingException", "ThrottlingException", func(err error) []types.ThrottlingReason {
			var e *types.ThrottlingException
			Expect(errors.As(err, &e)).To(BeTrue(), "%T %v", err, err)
			return e.ThrottlingReasons
		}, "TableReadKeyRangeThroughputExceeded"),
		Entry("ProvisionedThroughputExceededException", "ProvisionedThroughputExceededException", func(err error) []types.ThrottlingReason {
			var e *types.ProvisionedThroughputExceededException
			Expect(errors.As(err, &e)).To(BeTrue(), "%T %v", err, err)
			return e.ThrottlingReasons
		}, "TableReadProvisionedThroughputExceeded"),
		Entry("RequestLimitExceeded", "RequestLimitExceeded", func(err error) []types.ThrottlingReason {
			var e *types.RequestLimitExceeded
			Expect(errors.As(err, &e)).To(BeTrue(), "%T %v", err, err)
			return e.ThrottlingReasons
		}, "TableReadAccountLimitExceeded"),
	)

	It("names a GSI's reason and ARN for a Query of it", func(ctx SpecContext) {
		aim("op=Query index=G1 error=ProvisionedThroughputExceededException")
		_, err := once.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("G1"),
			KeyConditionExpression: aws.String("GPK = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": str("x")}})
		var e *types.ProvisionedThroughputExceededException
		Expect(errors.As(err, &e)).To(BeTrue(), "%v", err)
		Expect(aws.ToString(e.ThrottlingReasons[0].Reason)).To(Equal("IndexReadProvisionedThroughputExceeded"))
		Expect(aws.ToString(e.ThrottlingReasons[0].Resource)).To(HaveSuffix("table/" + table + "/index/G1"))
		Expect(aws.ToString(e.Message)).To(ContainSubstring("global secondary indexes"))
	})

	DescribeTable("a transaction cancelled: the reason on each action aimed at, None on the others, nothing written, not retried",
		func(ctx SpecContext, kind string) {
			aim("op=TransactWriteItems key=PK:tx-a error=" + kind)
			_, err := retrying.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(table), Item: itemAt("tx-a", "1")}},
				{Put: &types.Put{TableName: aws.String(table), Item: itemAt("tx-b", "1")}},
				{Update: &types.Update{TableName: aws.String(table), Key: itemAt("tx-a", "2"), UpdateExpression: aws.String("SET n = :one"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}},
			}})
			var e *types.TransactionCanceledException
			Expect(errors.As(err, &e)).To(BeTrue(), "%v", err)
			var codes []string
			for _, r := range e.CancellationReasons {
				codes = append(codes, aws.ToString(r.Code))
			}
			Expect(codes).To(Equal([]string{kind, "None", kind}))
			Expect(retryable(err)).To(BeFalse(), "the SDK does not retry a cancelled transaction")
			Expect(h.Status().Faults[0].Hits).To(Equal(int64(1)), "one attempt: not retried")
			Expect(stored(ctx, "tx-a")).To(BeFalse())
			Expect(stored(ctx, "tx-b")).To(BeFalse(), "a cancelled transaction writes nothing")
		},
		Entry("TransactionConflict", "TransactionConflict"),
		Entry("ThrottlingError", "ThrottlingError"))

	It("refuses a single-item write with TransactionConflictException, not retried", func(ctx SpecContext) {
		aim("op=UpdateItem error=TransactionConflict")
		_, err := retrying.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: itemAt("single", "1"),
			UpdateExpression: aws.String("SET n = :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
		var e *types.TransactionConflictException
		Expect(errors.As(err, &e)).To(BeTrue(), "%v", err)
		Expect(retryable(err)).To(BeFalse())
		Expect(stored(ctx, "single")).To(BeFalse())
	})

	It("hands back the requests of a BatchWriteItem aimed at as UnprocessedItems and writes the others", func(ctx SpecContext) {
		aim("op=BatchWriteItem key=PK:back-* error=UnprocessedItems")
		var ws []types.WriteRequest
		for _, pk := range []string{"keep-1", "back-1", "keep-2", "back-2"} {
			ws = append(ws, types.WriteRequest{PutRequest: &types.PutRequest{Item: itemAt(pk, "1")}})
		}
		out, err := once.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: ws}})
		Expect(err).NotTo(HaveOccurred())
		var back []string
		for _, w := range out.UnprocessedItems[table] {
			back = append(back, w.PutRequest.Item["PK"].(*types.AttributeValueMemberS).Value)
		}
		Expect(back).To(Equal([]string{"back-1", "back-2"}))
		Expect(stored(ctx, "keep-1") && stored(ctx, "keep-2")).To(BeTrue())
		Expect(stored(ctx, "back-1") || stored(ctx, "back-2")).To(BeFalse())
	})

	It("hands back the keys of a BatchGetItem aimed at as UnprocessedKeys and reads the others", func(ctx SpecContext) {
		_, err := direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt("read-1", "1")})
		Expect(err).NotTo(HaveOccurred())
		_, err = direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt("read-2", "1")})
		Expect(err).NotTo(HaveOccurred())
		aim("op=BatchGetItem key=PK:read-2 error=UnprocessedKeys")
		out, err := once.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {
			Keys: []map[string]types.AttributeValue{itemAt("read-1", "1"), itemAt("read-2", "1")}, ConsistentRead: aws.Bool(true)}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Responses[table]).To(HaveLen(1))
		Expect(out.Responses[table][0]["PK"]).To(Equal(str("read-1")))
		Expect(out.UnprocessedKeys[table].Keys).To(HaveLen(1))
		Expect(out.UnprocessedKeys[table].Keys[0]["PK"]).To(Equal(str("read-2")))
		Expect(aws.ToBool(out.UnprocessedKeys[table].ConsistentRead)).To(BeTrue(), "handed back as asked")
	})

	DescribeTable("a 5xx: the status and exception, retried by the SDK",
		func(ctx SpecContext, kind string, status int, as func(error) bool) {
			aim("op=PutItem first=1 error=" + kind)
			_, err := once.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt("e"+kind, "1")})
			Expect(as(err)).To(BeTrue(), "%T %v", err, err)
			var re *awshttp.ResponseError
			Expect(errors.As(err, &re)).To(BeTrue())
			Expect(re.HTTPStatusCode()).To(Equal(status))
			Expect(retryable(err)).To(BeTrue())
			Expect(stored(ctx, "e"+kind)).To(BeFalse(), "nothing done")
		},
		Entry("InternalServerError", "InternalServerError", http.StatusInternalServerError, func(err error) bool {
			var e *types.InternalServerError
			return errors.As(err, &e)
		}),
		Entry("ServiceUnavailable", "ServiceUnavailable", http.StatusServiceUnavailable, func(err error) bool {
			var e smithy.APIError
			return errors.As(err, &e) && e.ErrorCode() == "ServiceUnavailable"
		}))

	It("resets the connection after the write was applied: the SDK retries, and a write that is not idempotent lands twice", func(ctx SpecContext) {
		aim("op=UpdateItem key=PK:reset first=2 error=ConnectionReset")
		add := &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: itemAt("reset", "1"),
			UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}
		_, err := once.UpdateItem(ctx, add)
		Expect(err).To(HaveOccurred())
		Expect(retryable(err)).To(BeTrue(), "a reset connection is retried: %v", err)
		Expect(stored(ctx, "reset")).To(BeTrue(), "the write was applied before the reset")

		_, err = retrying.UpdateItem(ctx, add) // reset once more, then retried
		Expect(err).NotTo(HaveOccurred())
		out, err := get(ctx, direct, "reset")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Item["n"]).To(Equal(&types.AttributeValueMemberN{Value: "3"}), "one call the client saw fail, one it saw succeed: three writes")
	})

	It("answers late by the rule's latency, then as usual", func(ctx SpecContext) {
		aim("op=GetItem key=PK:slow latency=150ms")
		start := time.Now()
		_, err := get(ctx, once, "slow")
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(start)).To(BeNumerically(">=", 150*time.Millisecond))
	})

	It("decides before the emulator: a call a rule refuses is not the emulator's, and the status counts the rule's hits", func(ctx SpecContext) {
		aim("op=GetItem key=PK:counted every=2 error=InternalServerError", "latency=1ms")
		before := h.Status().Requests
		for range 4 {
			get(ctx, once, "counted")
		}
		Expect(h.Status().Requests-before).To(Equal(int64(2)), "two of four calls refused before the emulator")
		resp, err := http.Get(url + endpoint.StatusPath)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		var st endpoint.Status
		Expect(json.NewDecoder(resp.Body).Decode(&st)).To(Succeed())
		Expect(st.Faults).To(Equal([]fault.RuleStatus{
			{Rule: "op=GetItem key=PK:counted every=2 error=InternalServerError", Matched: 4, Hits: 2},
			{Rule: "latency=1ms", Matched: 2, Hits: 2},
		}))
	})
})
