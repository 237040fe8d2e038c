package meter_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// designs.BatchGet's specs borrow the meter's suite for its table and
// DynamoDB Local (designs has no suite of its own on DynamoDB); they call
// DynamoDB Local directly, without the meter.

// thing is what the BatchGet specs store and read.
type thing struct {
	PK   string `dynamodbav:"PK"`
	SK   string `dynamodbav:"SK"`
	Name string `dynamodbav:"Name"`
}

func (v thing) key() map[string]types.AttributeValue { return schema.Key(v.PK, v.SK) }

// store writes n things under a partition of the spec's own and returns
// them; every third is only a key, never written, so that reads miss it.
func store(ctx context.Context, n int) (all []thing, stored []bool) {
	GinkgoHelper()
	pk := fmt.Sprintf("batch-%d", GinkgoRandomSeed()) + "-" + CurrentSpecReport().LeafNodeText
	for i := range n {
		v := thing{PK: pk, SK: fmt.Sprintf("%04d", i), Name: fmt.Sprintf("thing %d", i)}
		all, stored = append(all, v), append(stored, i%3 != 2)
		if !stored[i] {
			continue
		}
		item, err := attributevalue.MarshalMap(v)
		Expect(err).NotTo(HaveOccurred())
		_, err = raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
		Expect(err).NotTo(HaveOccurred())
	}
	return all, stored
}

// expected is what BatchGet should answer for things: each stored thing
// at its place, the zero thing where none is stored.
func expected(all []thing, stored []bool) []thing {
	want := make([]thing, len(all))
	for i, v := range all {
		if stored[i] {
			want[i] = v
		}
	}
	return want
}

func keysOf(all []thing) []map[string]types.AttributeValue {
	var keys []map[string]types.AttributeValue
	for _, v := range all {
		keys = append(keys, v.key())
	}
	return keys
}

// designs.BatchGet on DynamoDB Local: it lives in this suite, whose table
// and client it borrows, so that the designs package stays pure code that
// go test caches.
var _ = Describe("designs.BatchGet", Label("client", "batch"), func() {
	It("returns the items in the keys' order, and which keys had none", func(ctx SpecContext) {
		all, stored := store(ctx, 9)
		order := []int{8, 0, 5, 3, 2, 7, 1, 6, 4} // neither the stored order nor the sort order
		var shuffled []thing
		var held []bool
		for _, i := range order {
			shuffled, held = append(shuffled, all[i]), append(held, stored[i])
		}
		items, found, err := designs.BatchGet[thing](ctx, raw, table, keysOf(shuffled), true)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(Equal(held))
		Expect(items).To(Equal(expected(shuffled, held)))
	})

	It("splits more than 100 keys into calls of at most 100", func(ctx SpecContext) {
		all, stored := store(ctx, 250)
		db := &ddbtest.HandBack{DB: raw}
		items, found, err := designs.BatchGet[thing](ctx, db, table, keysOf(all), false)
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Calls()).To(Equal([]int{ddbitem.MaxBatchGet, ddbitem.MaxBatchGet, 50}))
		Expect(found).To(Equal(stored))
		Expect(items).To(Equal(expected(all, stored)))
	})

	It("reads nothing and calls nothing for no keys", func(ctx SpecContext) {
		db := &ddbtest.HandBack{DB: raw}
		items, found, err := designs.BatchGet[thing](ctx, db, table, nil, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(items).To(BeEmpty())
		Expect(found).To(BeEmpty())
		Expect(db.Calls()).To(BeEmpty())
	})

	It("refuses a key named twice before any call, as DynamoDB refuses the request", func(ctx SpecContext) {
		all, _ := store(ctx, 3)
		keys := append(keysOf(all), all[1].key())
		_, err := raw.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys}}})
		var api smithy.APIError
		Expect(errors.As(err, &api)).To(BeTrue(), "DynamoDB Local answered %v", err)
		Expect(api.ErrorCode()).To(Equal("ValidationException"))

		db := &ddbtest.HandBack{DB: raw}
		_, _, err = designs.BatchGet[thing](ctx, db, table, keys, true)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(err).To(MatchError(ContainSubstring("keys 1 and 3 are the same key")))
		Expect(db.Calls()).To(BeEmpty())
	})

	It("refuses a key that names other attributes than the first key", func(ctx SpecContext) {
		keys := []map[string]types.AttributeValue{schema.Key("a", "1"), {"PK": &types.AttributeValueMemberS{Value: "a"}}}
		_, _, err := designs.BatchGet[thing](ctx, raw, table, keys, true)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(err).To(MatchError(ContainSubstring("key 1 does not name the key attributes PK, SK")))
	})

	It("sends the keys DynamoDB hands back again until every one is read", func(ctx SpecContext) {
		all, stored := store(ctx, 12)
		db := &ddbtest.HandBack{DB: raw, Withhold: func(call int, keys []map[string]types.AttributeValue) (send, back []map[string]types.AttributeValue) {
			if call >= 3 {
				return keys, nil
			}
			return keys[:len(keys)/2], keys[len(keys)/2:] // half of them, three times
		}}
		items, found, err := designs.BatchGet[thing](ctx, db, table, keysOf(all), true)
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Calls()).To(Equal([]int{12, 6, 3, 2}))
		Expect(found).To(Equal(stored))
		Expect(items).To(Equal(expected(all, stored)))
	})

	It("gives up after its retries, naming how many keys stayed unprocessed", func(ctx SpecContext) {
		all, _ := store(ctx, 3)
		db := &ddbtest.HandBack{DB: raw, Withhold: func(_ int, keys []map[string]types.AttributeValue) (send, back []map[string]types.AttributeValue) {
			return keys[:len(keys)-1], keys[len(keys)-1:] // one never read
		}}
		_, _, err := designs.BatchGet[thing](ctx, db, table, keysOf(all), true)
		Expect(err).To(MatchError(designs.ErrUnprocessed))
		Expect(err).To(MatchError(ContainSubstring(fmt.Sprintf("1 of 3 keys after %d retries", designs.BatchGetRetries))))
		Expect(db.Calls()).To(HaveLen(1 + designs.BatchGetRetries))
	})

	It("stops waiting to retry when its context ends", func(ctx SpecContext) {
		all, _ := store(ctx, 3)
		callCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		db := &ddbtest.HandBack{DB: raw,
			Withhold: func(_ int, keys []map[string]types.AttributeValue) (send, back []map[string]types.AttributeValue) {
				return nil, keys
			},
			Answered: func(int) { cancel() },
		}
		_, _, err := designs.BatchGet[thing](callCtx, db, table, keysOf(all), true)
		Expect(err).To(MatchError(context.Canceled))
		Expect(err).To(MatchError(designs.ErrUnprocessed))
		Expect(err).To(MatchError(ContainSubstring("3 of 3 keys")))
		Expect(db.Calls()).To(HaveLen(1))
	})
})
