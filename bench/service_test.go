package bench_test

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

var _ = Describe("the service's own consumed capacity", Label("unit"), func() {
	// A GetItem answer in the shape real DynamoDB gives with
	// ReturnConsumedCapacity=INDEXES: the call's total, then its table's.
	// The item is 5,000-odd bytes: AWS's rules charge an eventually
	// consistent read of it 1 RCU (two 4 KB units, halved).
	body := func(units string) ddbtest.Answer {
		return ddbtest.Answer(`{"Item":{"PK":{"S":"K1"},"SK":{"S":"A"},"Blob":{"S":"` + strings.Repeat("x", 5000) + `"}},` +
			`"ConsumedCapacity":{"TableName":"ddbh-t","CapacityUnits":` + units + `,"Table":{"CapacityUnits":` + units + `}}}`)
	}
	get := func(a ddbtest.Answer) capacity.Report {
		s := designs.Schema{PK: "PK", SK: "SK"}
		sdk := dynamodb.New(dynamodb.Options{Region: "eu-west-1", BaseEndpoint: aws.String("https://dynamodb.eu-west-1.amazonaws.com"),
			HTTPClient: a, Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")})
		l := ledger.NewLedger(s)
		c := meter.NewClient(sdk, s)
		c.Observe(func(_ context.Context, o pricing.Observation) { l.Observe(o) })
		ctx := designs.WithPattern(context.Background(), "AP-01")
		_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ddbh-t"),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "K1"}, "SK": &types.AttributeValueMemberS{Value: "A"}}})
		Expect(err).NotTo(HaveOccurred())
		return capacity.Model{Schema: s, Requests: 1}.Analyze(l)
	}

	It("lists a call where the service's figure differs from AWS's rules, with both figures", func() {
		r := get(body("1.5"))
		Expect(r.Disagreements).To(ContainElement(And(
			HaveField("Pattern", designs.PatternID("AP-01")), HaveField("Op", designs.GetItem),
			HaveField("Differing", int64(1)), HaveField("Units", 1.0), HaveField("LocalUnits", 1.5))))
		Expect(r.Patterns).To(ContainElement(And(HaveField("RCU", 1.0), HaveField("Local", 1.5))), "the model keeps AWS's rules")
	})

	It("lists nothing when the service agrees", func() {
		r := get(body("1.0"))
		Expect(r.Disagreements).To(BeEmpty())
		Expect(r.Patterns).To(ContainElement(And(HaveField("LocalCalls", int64(1)), HaveField("Local", 1.0))), "the figure was compared")
	})
})
