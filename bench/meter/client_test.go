package meter_test

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

const pattern designs.PatternID = "AP-T1"

// as makes ctx carry the pattern's calls.
func as(ctx context.Context) context.Context { return designs.WithPattern(ctx, pattern) }

var _ = Describe("the instrumented client", Label("client"), func() {
	var (
		client *meter.Client
		rec    *meter.Recorder
		pk     string
	)
	BeforeEach(func() {
		client = meter.NewClient(raw, schema)
		rec = &meter.Recorder{}
		client.Observe(rec.Observe)
		pk = freshPK()
	})

	Describe("single-item writes", func() {
		It("records a put's before and after images, and the pattern sees only what it asked for", func(ctx SpecContext) {
			v1 := item(pk, "A", "Name", "first")
			out, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: v1})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Attributes).To(BeNil(), "the client asked for ALL_OLD; the pattern did not")
			Expect(out.ConsumedCapacity).To(BeNil())
			o := only(rec)
			Expect(o.Pattern).To(Equal(pattern))
			Expect(o.Op).To(Equal(designs.PutItem))
			Expect(o.Table).To(Equal(table))
			Expect(o.Writes).To(Equal([]pricing.Write{{After: v1, Key: key(pk, "A")}}))
			Expect(o.Local).To(HaveLen(1), "DynamoDB Local's own figure is kept")

			v2 := item(pk, "A", "Name", "second", "G", "grp")
			out, err = client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: v2, ReturnValues: types.ReturnValueAllOld})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Attributes).To(sameItem(v1), "the pattern asked for ALL_OLD")
			w := only(rec).Writes[0]
			Expect(w.Before).To(sameItem(v1))
			Expect(w.After).To(sameItem(v2))
		})

		It("records a lost condition as a failed write of the item as stored, and hides the image from the pattern", func(ctx SpecContext) {
			v1 := item(pk, "A", "Name", "first")
			rawPut(ctx, v1)
			err := designs.PutNew(as(ctx), client, table, schema, struct {
				PK, SK string
			}{pk, "A"})
			Expect(err).To(MatchError(designs.ErrAlreadyExists))
			o := only(rec)
			Expect(o.Writes).To(HaveLen(1))
			Expect(o.Writes[0].Failed).To(BeTrue())
			Expect(o.Writes[0].Before).To(sameItem(v1))
			Expect(o.Writes[0].After).To(sameItem(v1))
			Expect(o.Writes[0].Attempted).To(sameItem(key(pk, "A")))

			_, err = client.DeleteItem(as(ctx), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(pk, "missing"),
				ConditionExpression: aws.String("attribute_exists(PK)")})
			var ccf *types.ConditionalCheckFailedException
			Expect(errors.As(err, &ccf)).To(BeTrue())
			Expect(ccf.Item).To(BeNil(), "the pattern did not ask for the item on failure")
			Expect(only(rec).Writes).To(Equal([]pricing.Write{{Failed: true, Key: key(pk, "missing")}}))
		})

		It("sizes a failed conditional write on the larger of the stored item and the item it would have written", func(ctx SpecContext) {
			small := item(pk, "A", "Name", "first")
			rawPut(ctx, small)
			big := item(pk, "A", "Name", strings.Repeat("x", 2500))
			_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: big,
				ConditionExpression: aws.String("attribute_not_exists(PK)")})
			var ccf *types.ConditionalCheckFailedException
			Expect(errors.As(err, &ccf)).To(BeTrue())
			o := only(rec)
			Expect(o.Writes[0].Before).To(sameItem(small))
			Expect(o.Writes[0].Attempted).To(sameItem(big))
			charges := pricing.Account(schema.ItemSchema(), o)
			Expect(charges).To(HaveLen(1))
			Expect(charges[0].WCU).To(Equal(3.0), "a 2,5xx-byte attempted item over a small stored one")
		})

		It("records a delete's old image", func(ctx SpecContext) {
			v1 := item(pk, "A", "Name", "first")
			rawPut(ctx, v1)
			out, err := client.DeleteItem(as(ctx), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(pk, "A")})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Attributes).To(BeNil())
			w := only(rec).Writes[0]
			Expect(w.Before).To(sameItem(v1))
			Expect(w.After).To(BeNil())
			Expect(stored(ctx, key(pk, "A"))).To(BeNil())
		})
	})

	DescribeTable("an update's images are the item as DynamoDB stored it before and after",
		func(ctx SpecContext, start ddbitem.Item, update expression.UpdateBuilder) {
			for k, v := range key(pk, "A") {
				start[k] = v
			}
			rawPut(ctx, start)
			expr, err := expression.NewBuilder().WithUpdate(update).Build()
			Expect(err).NotTo(HaveOccurred())
			out, err := client.UpdateItem(as(ctx), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(pk, "A"),
				UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Attributes).To(BeNil())
			w := only(rec).Writes[0]
			Expect(w.Before).To(sameItem(start))
			Expect(w.After).To(sameItem(stored(ctx, key(pk, "A"))))
			Expect(client.Settle(ctx).Approximations).To(BeZero())
		},
		Entry("setting and adding attributes", item("", "", "Name", "a"),
			expression.Set(expression.Name("Name"), expression.Value("b")).Set(expression.Name("G"), expression.Value("grp"))),
		Entry("subtracting from a number", item("", "", "Stock", 10),
			expression.Set(expression.Name("Stock"), expression.Minus(expression.Name("Stock"), expression.Value(3)))),
		Entry("adding decimals", item("", "", "Price", n("1.25")),
			expression.Set(expression.Name("Price"), expression.Plus(expression.Name("Price"), expression.Value(0.75)))),
		Entry("filling a missing attribute with if_not_exists", item("", "", "Name", "a"),
			expression.Set(expression.Name("Views"), expression.IfNotExists(expression.Name("Views"), expression.Value(0)))),
		Entry("appending to a list", item("", "", "List", []string{"a"}),
			expression.Set(expression.Name("List"), expression.ListAppend(expression.Name("List"), expression.Value([]string{"b", "c"})))),
		Entry("setting and removing nested map paths", item("", "", "data", map[string]any{"lease": "L1", "account": "1"}),
			expression.Set(expression.Name("data.email"), expression.Value("a@b.c")).Remove(expression.Name("data.lease"))),
		Entry("adding to a number and to a string set", item("", "", "Version", 1, "IDs", ss("1", "2")),
			expression.Add(expression.Name("Version"), expression.Value(1)).Add(expression.Name("IDs"), expression.Value(setOf("3", "2")))),
		Entry("deleting a set's last elements", item("", "", "IDs", ss("1", "2"), "Name", "a"),
			expression.Delete(expression.Name("IDs"), expression.Value(setOf("1", "2")))),
		Entry("swapping two attributes: operands read the item before the update", item("", "", "a", 1, "b", 2),
			expression.Set(expression.Name("a"), expression.Name("b")).Set(expression.Name("b"), expression.Name("a"))),
	)

	It("takes an update's old image from DynamoDB when the pattern asked for the new one, even after a write the client did not see", func(ctx SpecContext) {
		v1 := item(pk, "A", "Name", "first", "Stock", 3, "K", pk+"-1")
		_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: v1})
		Expect(err).NotTo(HaveOccurred())
		rec.Take()
		// A concurrent write the client has not handled yet moved the item's
		// Slim entry to another partition: the client's shadow still holds v1.
		v2 := item(pk, "A", "Name", "second", "Stock", 4, "K", pk+"-2")
		rawPut(ctx, v2)

		expr, err := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("Stock"), expression.Value(2))).Build()
		Expect(err).NotTo(HaveOccurred())
		out, err := client.UpdateItem(as(ctx), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(pk, "A"),
			UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
			ReturnValues: types.ReturnValueAllNew})
		Expect(err).NotTo(HaveOccurred())
		v3 := stored(ctx, key(pk, "A"))
		Expect(v3).To(sameItem(item(pk, "A", "Name", "second", "Stock", 6, "K", pk+"-2")))
		Expect(out.Attributes).To(sameItem(v3), "the pattern gets the new image it asked for")
		o := only(rec)
		w := o.Writes[0]
		Expect(w.Before).To(sameItem(v2), "the item as DynamoDB stored it, not the shadow's v1")
		Expect(w.After).To(sameItem(v3))
		Expect(client.Settle(ctx).Approximations).To(BeZero())
		// The update left the Slim entry where it was: it is charged on the
		// table alone, not as a move out of v1's Slim partition.
		charges := pricing.Account(schema.ItemSchema(), o)
		Expect(charges).To(HaveLen(1))
		Expect(charges[0].Target).To(Equal(designs.MainTable))
		Expect(charges[0].Key).To(Equal(pk))
		Expect(charges[0].WCU).To(Equal(1.0))

		type stock struct{ Stock int }
		got, err := designs.Update[stock](as(ctx), client, table, key(pk, "A"),
			expression.Add(expression.Name("Stock"), expression.Value(2)), expression.ConditionBuilder{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Stock).To(Equal(8))
		w = only(rec).Writes[0]
		Expect(w.Before).To(sameItem(v3))
		Expect(w.After).To(sameItem(stored(ctx, key(pk, "A"))))
	})

	Describe("transactions", func() {
		var before ddbitem.Item
		BeforeEach(func(ctx SpecContext) {
			before = item(pk, "status", "IDs", ss("1", "2"), "Name", "s")
			_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: before})
			Expect(err).NotTo(HaveOccurred())
			_, err = client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, "gone")})
			Expect(err).NotTo(HaveOccurred())
			rec.Take()
		})

		It("records every action's images from the shadow, as DynamoDB stored them", func(ctx SpecContext) {
			tx := designs.Tx{Table: table}
			tx.Put(row{pk, "new", "n"}, schema.IsNew(), nil)
			tx.Update(key(pk, "status"), expression.Set(expression.Name("Name"), expression.Value("t")).
				Add(expression.Name("IDs"), expression.Value(setOf("3"))), expression.ConditionBuilder{}, nil)
			tx.Delete(key(pk, "gone"), schema.IsStored(), nil)
			tx.Check(key(pk, "absent"), schema.IsNew(), nil)
			Expect(tx.Write(as(ctx), client)).To(Succeed())

			o := only(rec)
			Expect(o.Op).To(Equal(designs.TransactWriteItems))
			Expect(o.Transactional).To(BeTrue())
			Expect(o.Writes).To(HaveLen(4))
			Expect(o.Writes[0].Before).To(BeNil())
			Expect(o.Writes[0].After).To(sameItem(stored(ctx, key(pk, "new"))))
			Expect(o.Writes[1].Before).To(sameItem(before))
			Expect(o.Writes[1].After).To(sameItem(stored(ctx, key(pk, "status"))))
			Expect(o.Writes[2].Before).To(sameItem(item(pk, "gone")))
			Expect(o.Writes[2].After).To(BeNil())
			Expect(o.Writes[3]).To(Equal(pricing.Write{Key: key(pk, "absent")}), "a check of a missing item")
		})

		It("records a cancelled transaction as failed writes of the items as they stand, and writes nothing", func(ctx SpecContext) {
			tx := designs.Tx{Table: table}
			tx.Update(key(pk, "status"), expression.Add(expression.Name("IDs"), expression.Value(setOf("9"))), expression.ConditionBuilder{}, nil)
			tx.Put(row{pk, "gone", "again"}, schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
			Expect(tx.Write(as(ctx), client)).To(MatchError(designs.ErrAlreadyExists))

			ws := only(rec).Writes
			Expect(ws).To(HaveLen(2))
			Expect(ws[0].Failed).To(BeTrue())
			Expect(ws[0].Before).To(sameItem(before))
			Expect(ws[0].After).To(sameItem(before))
			Expect(ws[0].Attempted["IDs"]).To(Equal(ss(append(slices.Clone(before["IDs"].(*types.AttributeValueMemberSS).Value), "9")...)))
			Expect(ws[1].Failed).To(BeTrue())
			Expect(ws[1].Before).To(sameItem(item(pk, "gone")))
			Expect(stored(ctx, key(pk, "status"))).To(sameItem(before))
		})

		It("hides the failure images the pattern did not ask for", func(ctx SpecContext) {
			_, err := client.TransactWriteItems(as(ctx), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(table), Item: item(pk, "gone"), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			}})
			var tce *types.TransactionCanceledException
			Expect(errors.As(err, &tce)).To(BeTrue())
			Expect(tce.CancellationReasons[0].Item).To(BeNil())
			Expect(only(rec).Writes[0].Before).To(sameItem(item(pk, "gone")), "the client saw it all the same")
		})
	})

	Describe("reads", func() {
		var whole ddbitem.Item
		BeforeEach(func(ctx SpecContext) {
			whole = item(pk, "A", "Name", "n", "R", "r1", "K", "k-"+pk, "Extra", "x")
			_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: whole})
			Expect(err).NotTo(HaveOccurred())
			rec.Take()
		})

		It("charges a projected GetItem for the whole item", func(ctx SpecContext) {
			out, err := client.GetItem(as(ctx), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(pk, "A"),
				ProjectionExpression: aws.String("#n"), ExpressionAttributeNames: map[string]string{"#n": "Name"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Item).To(Equal(ddbitem.Item{"Name": s("n")}))
			o := only(rec)
			Expect(o.Op).To(Equal(designs.GetItem))
			Expect(o.Consistent).To(BeFalse())
			Expect(o.Reads).To(Equal([]ddbitem.Item{whole}))
		})

		It("counts a GetItem that finds nothing as a miss on its key", func(ctx SpecContext) {
			_, err := client.GetItem(as(ctx), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(pk, "none"), ConsistentRead: aws.Bool(true)})
			Expect(err).NotTo(HaveOccurred())
			o := only(rec)
			Expect(o.Consistent).To(BeTrue())
			Expect(o.Reads).To(BeEmpty())
			Expect(o.Misses).To(Equal(1))
			Expect(o.Addressed).To(Equal([]ddbitem.Item{key(pk, "none")}))
		})

		DescribeTable("reads an index's entries as the index stores them",
			func(ctx SpecContext, index, pkAttr string, projection *string, want func() ddbitem.Item) {
				pkValue := pk
				if pkAttr == "K" {
					pkValue = "k-" + pk
				}
				in := &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String(index),
					KeyConditionExpression:    aws.String("#p = :p"),
					ExpressionAttributeNames:  map[string]string{"#p": pkAttr},
					ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(pkValue)},
					ProjectionExpression:      projection}
				if projection != nil {
					in.ExpressionAttributeNames["#n"] = "Name"
				}
				_, err := client.Query(as(ctx), in)
				Expect(err).NotTo(HaveOccurred())
				o := only(rec)
				Expect(o.Index).To(Equal(index))
				Expect(o.Reads).To(Equal([]ddbitem.Item{want()}))
				Expect(o.Addressed).To(Equal([]ddbitem.Item{{pkAttr: s(pkValue)}}))
			},
			Entry("a KEYS_ONLY GSI: the keys", "Slim", "K", nil,
				func() ddbitem.Item { return ddbitem.Item{"PK": whole["PK"], "SK": whole["SK"], "K": whole["K"]} }),
			Entry("an INCLUDE LSI read for one attribute: its entry all the same", "ByRank", "PK", aws.String("#n"),
				func() ddbitem.Item {
					return ddbitem.Item{"PK": whole["PK"], "SK": whole["SK"], "R": whole["R"], "Name": whole["Name"]}
				}),
			Entry("an INCLUDE LSI read for an attribute it does not hold: the whole item, fetched from the table", "ByRank", "PK", aws.String("#n, Extra"),
				func() ddbitem.Item { return whole }),
		)

		It("names the partition a Query that found nothing read", func(ctx SpecContext) {
			key := expression.Key("PK").Equal(expression.Value(pk + "-empty"))
			items, next, err := schema.QueryPage(as(ctx), client, designs.PageQuery{Table: table, Key: key, Size: 5})
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(BeEmpty())
			Expect(next).To(BeEmpty())
			o := only(rec)
			Expect(o.Reads).To(BeEmpty())
			Expect(o.Addressed).To(Equal([]ddbitem.Item{{"PK": s(pk + "-empty")}}))
		})

		It("splits a BatchGetItem into hits and misses", func(ctx SpecContext) {
			_, err := client.BatchGetItem(as(ctx), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				table: {Keys: []map[string]types.AttributeValue{key(pk, "A"), key(pk, "B")}}}})
			Expect(err).NotTo(HaveOccurred())
			o := only(rec)
			Expect(o.Reads).To(Equal([]ddbitem.Item{whole}))
			Expect(o.Misses).To(Equal(1))
			Expect(o.Addressed).To(Equal([]ddbitem.Item{key(pk, "B")}))
		})

		It("takes a BatchWriteItem's old images from the shadow", func(ctx SpecContext) {
			next := item(pk, "A", "Name", "m")
			_, err := client.BatchWriteItem(as(ctx), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				table: {{PutRequest: &types.PutRequest{Item: next}}, {DeleteRequest: &types.DeleteRequest{Key: key(pk, "B")}}}}})
			Expect(err).NotTo(HaveOccurred())
			Expect(only(rec).Writes).To(Equal([]pricing.Write{
				{Before: whole, After: next, Key: key(pk, "A")},
				{Key: key(pk, "B")},
			}))
		})
	})

	It("observes nothing once told to stop, and keeps its shadow all the same", func(ctx SpecContext) {
		client.Observe(nil)
		v1 := item(pk, "A", "Name", "first")
		_, err := client.PutItem(as(ctx), &dynamodb.PutItemInput{TableName: aws.String(table), Item: v1})
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.Take()).To(BeEmpty())
		client.Observe(rec.Observe)
		_, err = client.DeleteItem(as(ctx), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(pk, "A")})
		Expect(err).NotTo(HaveOccurred())
		Expect(only(rec).Writes[0].Before).To(sameItem(v1))
	})
})
