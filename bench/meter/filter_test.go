package meter_test

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// A filter or a COUNT hides from the pattern items DynamoDB read and
// charged: the client names them from its shadow, or leaves the call to
// Local's figure when it cannot.
var _ = Describe("filtered and counting reads", Label("client"), func() {
	var (
		client *meter.Client
		rec    *meter.Recorder
		pk     string
		items  []ddbitem.Item
	)
	// Four items of 1,100 bytes: the four cost 2 read units strongly
	// consistent (4,400 bytes), the three the filter keeps would cost 1.
	BeforeEach(func(ctx SpecContext) {
		client = meter.NewClient(raw, schema)
		rec = &meter.Recorder{}
		client.Observe(rec.Observe)
		pk = freshPK()
		items = nil
		for i, keep := range []string{"yes", "no", "yes", "yes"} {
			it := item(pk, string(rune('A'+i)), "Keep", keep)
			it["Pad"] = s(strings.Repeat("x", 1100-ddbitem.Size(it)-len("Pad")))
			Expect(ddbitem.Size(it)).To(Equal(1100))
			_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it})
			Expect(err).NotTo(HaveOccurred())
			items = append(items, it)
		}
		rec.Take()
	})

	query := func(extra func(*dynamodb.QueryInput)) *dynamodb.QueryInput {
		in := &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			KeyConditionExpression:    aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(pk)}}
		extra(in)
		return in
	}
	filter := func(in *dynamodb.QueryInput) {
		in.FilterExpression = aws.String("Keep = :k")
		in.ExpressionAttributeValues[":k"] = s("yes")
	}
	// charged is what AWS's rules give the observed call, and what Local said.
	charged := func(o pricing.Observation) (ours, local float64) {
		for _, c := range pricing.Account(schema.ItemSchema(), o) {
			ours += c.RCU
		}
		for _, cc := range o.Local {
			local += aws.ToFloat64(cc.CapacityUnits)
		}
		return ours, local
	}

	It("charges a filtered Query for every item it evaluated, as DynamoDB Local does", func(ctx SpecContext) {
		out, err := client.Query(as(ctx), query(filter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Items).To(HaveLen(3))
		o := only(rec)
		Expect(o.Filtered).To(BeTrue())
		Expect(o.Evaluated).To(Equal(pricing.EvaluatedShadow))
		Expect(o.Returned).To(Equal(3))
		Expect(o.Scanned).To(Equal(4))
		Expect(o.Reads).To(HaveLen(4))
		ours, local := charged(o)
		Expect(ours).To(Equal(2.0))
		Expect(local).To(Equal(ours))
	})

	It("charges a COUNT for the items it counted", func(ctx SpecContext) {
		out, err := client.Query(as(ctx), query(func(in *dynamodb.QueryInput) { in.Select = types.SelectCount }))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Count).To(Equal(int32(4)))
		o := only(rec)
		Expect(o.Counted).To(BeTrue())
		Expect(o.Evaluated).To(Equal(pricing.EvaluatedShadow))
		Expect(o.Reads).To(HaveLen(4))
		ours, local := charged(o)
		Expect(ours).To(Equal(2.0))
		Expect(local).To(Equal(ours))
	})

	It("stops a filtered page where DynamoDB stopped, at its Limit, backward from a start key", func(ctx SpecContext) {
		out, err := client.Query(as(ctx), query(func(in *dynamodb.QueryInput) {
			filter(in)
			in.Limit, in.ScanIndexForward = aws.Int32(2), aws.Bool(false)
			in.ExclusiveStartKey = key(pk, "D")
		}))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.LastEvaluatedKey).To(Equal(key(pk, "B")))
		o := only(rec)
		Expect(o.Evaluated).To(Equal(pricing.EvaluatedShadow))
		Expect(o.Reads).To(HaveExactElements(sameItem(items[2]), sameItem(items[1])))
		Expect(o.Returned).To(Equal(1))
		ours, local := charged(o)
		Expect(ours).To(Equal(1.0))
		Expect(local).To(Equal(ours))
	})

	It("fills a filtered page of designs.QueryPage across calls, with a cursor that resumes after its last item", func(ctx SpecContext) {
		q := designs.PageQuery{Table: table, Key: expression.Key("PK").Equal(expression.Value(pk)), Size: 2, Consistent: true}
		keep := expression.Name("Keep").Equal(expression.Value("yes"))
		q.Filter = &keep
		page, next, err := schema.QueryPage(as(ctx), client, q)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(HaveExactElements(sameItem(items[0]), sameItem(items[2])))
		Expect(next).NotTo(BeEmpty())
		obs := rec.Take()
		Expect(obs).To(HaveLen(2), "the first call evaluated A, B and C and kept two: one more call to look ahead")
		Expect([]int{obs[0].Scanned, obs[1].Scanned}).To(Equal([]int{3, 1}))

		q.After = next
		page, next, err = schema.QueryPage(as(ctx), client, q)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(HaveExactElements(sameItem(items[3])))
		Expect(next).To(BeEmpty())
	})

	It("charges Local's figure when the shadow does not know what the read evaluated", func(ctx SpecContext) {
		rawPut(ctx, item(pk, "E", "Keep", "no")) // behind the client's back
		_, err := client.Query(as(ctx), query(filter))
		Expect(err).NotTo(HaveOccurred())
		o := only(rec)
		Expect(o.Evaluated).To(Equal(pricing.EvaluatedLocal))
		Expect(o.Scanned).To(Equal(5))
		ours, local := charged(o)
		Expect(local).To(BeNumerically(">", 0))
		Expect(ours).To(Equal(local))

		l := ledger.NewLedger(schema)
		l.Observe(o)
		r := capacity.Model{Schema: schema}.Analyze(l)
		Expect(r.Disagreements).To(BeEmpty())
		Expect(r.Patterns).To(HaveLen(1))
		Expect(r.Patterns[0].LocalCharged).To(Equal(int64(1)))
		Expect(r.Patterns[0].Evaluated).To(Equal(int64(5)))
	})

	It("leaves a filtered Scan of a table other clients write to at Local's figure", func(ctx SpecContext) {
		rawPut(ctx, item(freshPK(), "Z", "Keep", "no")) // another client's item: this client's shadow cannot name every item
		_, err := client.Scan(as(ctx), &dynamodb.ScanInput{TableName: aws.String(table), FilterExpression: aws.String("Keep = :k"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": s("yes")}})
		Expect(err).NotTo(HaveOccurred())
		o := only(rec)
		Expect(o.Filtered).To(BeTrue())
		Expect(o.Evaluated).To(Equal(pricing.EvaluatedLocal))
		ours, local := charged(o)
		Expect(ours).To(Equal(local))
	})
})
