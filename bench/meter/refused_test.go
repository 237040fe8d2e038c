package meter_test

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
)

// A value DynamoDB refuses reaches DynamoDB as the pattern sent it: the
// client asks for images only in place of "none", so the call is refused
// and writes nothing, as it would be without the client.
var _ = Describe("the instrumented client with a value DynamoDB refuses", Label("client"), func() {
	var (
		client *meter.Client
		pk     string
	)
	BeforeEach(func() {
		client = meter.NewClient(raw, schema)
		pk = freshPK()
	})
	refused := func(err error) {
		GinkgoHelper()
		var api smithy.APIError
		Expect(errors.As(err, &api)).To(BeTrue(), "an API error: %v", err)
		Expect(api.ErrorCode()).To(Equal("ValidationException"), err.Error())
	}

	DescribeTable("a put's ReturnValues", func(ctx SpecContext, rv types.ReturnValue) {
		_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, "A"), ReturnValues: rv})
		refused(err)
		Expect(stored(ctx, key(pk, "A"))).To(BeNil(), "nothing written")
	},
		Entry("UPDATED_OLD", types.ReturnValueUpdatedOld),
		Entry("ALL_NEW", types.ReturnValueAllNew),
		Entry("an unknown word", types.ReturnValue("EVERYTHING")),
	)

	It("refuses a delete's ALL_NEW and deletes nothing", func(ctx SpecContext) {
		rawPut(ctx, item(pk, "A"))
		_, err := client.DeleteItem(as(ctx), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(pk, "A"), ReturnValues: types.ReturnValueAllNew})
		refused(err)
		Expect(stored(ctx, key(pk, "A"))).NotTo(BeNil(), "nothing deleted")
	})

	It("refuses an unknown ReturnValuesOnConditionCheckFailure and writes nothing", func(ctx SpecContext) {
		_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, "A"),
			ConditionExpression: aws.String("attribute_not_exists(PK)"), ReturnValuesOnConditionCheckFailure: "ALL_NEW"})
		refused(err)
		Expect(stored(ctx, key(pk, "A"))).To(BeNil(), "nothing written")
	})

	It("gives a pattern that asked for TOTAL capacity the total alone", func(ctx SpecContext) {
		out, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, "A"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.ConsumedCapacity).NotTo(BeNil())
		Expect(out.ConsumedCapacity.CapacityUnits).NotTo(BeNil())
		Expect(out.ConsumedCapacity.Table).To(BeNil(), "TOTAL has no per-table figure")
	})
})
