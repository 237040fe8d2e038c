package meter_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// cannedDB answers GetItem and TransactWriteItems at once with fixed
// outputs, so that the instrumented client's own cost shows.
type cannedDB struct {
	designs.DB
	item ddbitem.Item
}

func (c cannedDB) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	one := 0.5
	return &dynamodb.GetItemOutput{Item: c.item, ConsumedCapacity: &types.ConsumedCapacity{TableName: aws.String("t"), CapacityUnits: &one}}, nil
}

func (c cannedDB) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// BenchmarkClient measures what the instrumented client and the capacity
// ledger add to each call, over a database that answers at once: the SDK
// itself costs some 60–70 µs of CPU per GetItem.
func BenchmarkClient(b *testing.B) {
	item := ddbitem.Item{"PK": s("CLIENT#1"), "SK": s("CLIENT#1"), "Name": s("A client with a name"),
		"Email": s("someone@example.com"), "Address": s("1 Main Street, Springfield")}
	l := ledger.NewLedger(schema)
	c := meter.NewClient(cannedDB{item: item}, schema)
	c.Observe(func(_ context.Context, o pricing.Observation) { l.Observe(o) })
	ctx := designs.WithPattern(context.Background(), pattern)

	b.Run("GetItem", func(b *testing.B) {
		in := &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key("CLIENT#1", "CLIENT#1")}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.GetItem(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("TransactWriteItems/update+put", func(b *testing.B) {
		tx := designs.Tx{Table: "t"}
		tx.Update(key("CLIENT#1", "CLIENT#1"), expression.Set(expression.Name("Name"), expression.Value("B")), schema.IsStored(), nil)
		tx.Put(row{"CLIENT#1", "EMAIL#x", "x"}, schema.IsNew(), nil)
		b.ReportAllocs()
		for b.Loop() {
			if err := tx.Write(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
