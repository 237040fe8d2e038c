package served_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/served"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// answers is an HTTP client that answers each request with the next body
// (HTTP 400 for an error body, 200 for "{}"), the last one again once they
// run out: DynamoDB's answers without DynamoDB.
type answers struct {
	mu     sync.Mutex
	bodies []string
	sent   int
}

func (a *answers) Do(*http.Request) (*http.Response, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	body := a.bodies[min(a.sent, len(a.bodies)-1)]
	a.sent++
	status := http.StatusOK
	if strings.Contains(body, "__type") {
		status = http.StatusBadRequest
	}
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body))}, nil
}

const ddbType = `"__type":"com.amazonaws.dynamodb.v20120810#`

var _ = Describe("DynamoDB's answers", Label("unit"), func() {
	var (
		obs *served.Observer
		db  *dynamodb.Client
		a   *answers
	)
	BeforeEach(func() {
		a = &answers{}
		obs = served.New()
		// A loopback endpoint signs with placeholder credentials; nothing
		// listens there: the answers client stands in for the wire.
		db = testbed.Client("http://127.0.0.1:9", ddbtest.QuickRetries, observed(obs),
			func(o *dynamodb.Options) { o.HTTPClient = a })
		obs.Enable()
	})
	putItem := func(ctx SpecContext) error {
		_, err := db.PutItem(designs.WithPattern(ctx, "AP-01"), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: itemAt("A", "1")})
		return err
	}

	It("counts RequestLimitExceeded, which gives no reason, once per attempt with an empty reason", func(ctx SpecContext) {
		a.bodies = []string{`{` + ddbType + `RequestLimitExceeded","message":"Throughput exceeds the current throughput limit for your account."}`}
		Expect(putItem(ctx)).NotTo(Succeed())
		s := obs.Summary()
		Expect(s.Counts).To(Equal(served.Counts{Calls: 1, Attempts: 3, ThrottledAttempts: 3, ThrottledCalls: 1}))
		Expect(s.Reasons).To(Equal([]served.Reason{{Exception: "RequestLimitExceeded", Count: 3}}))
	})

	It("counts each reason of a ThrottlingException, which spells its member throttlingReasons", func(ctx SpecContext) {
		a.bodies = []string{
			`{` + ddbType + `ThrottlingException","message":"slow down","throttlingReasons":[` +
				`{"reason":"TableWriteAccountLimitExceeded","resource":"` + tableARN + `"},` +
				`{"reason":"IndexWriteAccountLimitExceeded","resource":"` + indexARN + `"}]}`,
			`{}`,
		}
		Expect(putItem(ctx)).To(Succeed())
		s := obs.Summary()
		Expect(s.Counts).To(Equal(served.Counts{Calls: 1, Attempts: 2, ThrottledAttempts: 1}))
		Expect(s.Reasons).To(Equal([]served.Reason{
			{Exception: "ThrottlingException", Reason: "IndexWriteAccountLimitExceeded", Resource: indexARN, Count: 1},
			{Exception: "ThrottlingException", Reason: "TableWriteAccountLimitExceeded", Resource: tableARN, Count: 1},
		}))
	})

	It("counts each action of a transaction cancelled for provisioned throughput", func(ctx SpecContext) {
		a.bodies = []string{`{` + ddbType + `TransactionCanceledException","Message":"Transaction cancelled",` +
			`"CancellationReasons":[{"Code":"ProvisionedThroughputExceeded"},{"Code":"None"},{"Code":"ProvisionedThroughputExceeded"}]}`}
		_, err := db.TransactWriteItems(designs.WithPattern(ctx, "AP-02"), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("t"), Item: itemAt("A", "1")}},
			{Put: &types.Put{TableName: aws.String("t"), Item: itemAt("B", "1")}},
			{Put: &types.Put{TableName: aws.String("t"), Item: itemAt("C", "1")}},
		}})
		Expect(err).To(HaveOccurred())
		s := obs.Summary()
		Expect(s.Patterns).To(Equal([]served.PatternCalls{{Pattern: "AP-02", Operation: "TransactWriteItems",
			Counts: served.Counts{Calls: 1, Attempts: 1, ThrottledAttempts: 1, ThrottledCalls: 1}}}))
		Expect(s.Reasons).To(Equal([]served.Reason{{Exception: "TransactionCanceledException", Reason: "ProvisionedThroughputExceeded", Count: 2}}))
	})

	DescribeTable("counts an error that is no throttling as an attempt, not a throttled one",
		func(ctx SpecContext, body string) {
			a.bodies = []string{body}
			err := putItem(ctx)
			var api smithy.APIError
			Expect(errors.As(err, &api)).To(BeTrue(), "the SDK's own error: %v", err)
			Expect(body).To(ContainSubstring(`#`+api.ErrorCode()+`"`), "the error the body answered")
			Expect(obs.Summary()).To(Equal(served.Summary{Counts: served.Counts{Calls: 1, Attempts: 1},
				Patterns: []served.PatternCalls{{Pattern: "AP-01", Operation: "PutItem", Counts: served.Counts{Calls: 1, Attempts: 1}}}}))
		},
		Entry("a condition that failed", `{`+ddbType+`ConditionalCheckFailedException","message":"The conditional request failed"}`),
		Entry("a request DynamoDB found invalid", `{`+ddbType+`ValidationException","message":"One or more parameter values were invalid"}`),
		Entry("a write that met a transaction in progress", `{`+ddbType+`TransactionConflictException","message":"Transaction is ongoing for the item"}`),
	)

	It("refuses a stack without the SDK's retry loop, where it could not tell attempts from calls", func() {
		s := middleware.NewStack("no retries", smithyhttp.NewStackRequest)
		Expect(obs.Install(s)).NotTo(Succeed())
	})
})
