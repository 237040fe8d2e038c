package designs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// TestRoutedSendsEachCallOnItsOwnMethod routes each call through a second
// Routed, which refuses it: the operation each one saw names the method
// called, and the refusal comes back unchanged.
func TestRoutedSendsEachCallOnItsOwnMethod(t *testing.T) {
	stop := errors.New("refused by the route")
	var outer, inner []designs.Operation
	last := designs.Routed{Route: func(_ context.Context, op designs.Operation) (designs.DB, error) {
		inner = append(inner, op)
		return nil, stop
	}}
	db := designs.Routed{Route: func(_ context.Context, op designs.Operation) (designs.DB, error) {
		outer = append(outer, op)
		return last, nil
	}}
	ctx := context.Background()
	calls := []struct {
		op   designs.Operation
		call func() error
	}{
		{designs.GetItem, func() error { _, err := db.GetItem(ctx, &dynamodb.GetItemInput{}); return err }},
		{designs.PutItem, func() error { _, err := db.PutItem(ctx, &dynamodb.PutItemInput{}); return err }},
		{designs.UpdateItem, func() error { _, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{}); return err }},
		{designs.DeleteItem, func() error { _, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{}); return err }},
		{designs.Query, func() error { _, err := db.Query(ctx, &dynamodb.QueryInput{}); return err }},
		{designs.Scan, func() error { _, err := db.Scan(ctx, &dynamodb.ScanInput{}); return err }},
		{designs.BatchGetItem, func() error { _, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{}); return err }},
		{designs.BatchWriteItem, func() error { _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{}); return err }},
		{designs.TransactGetItems, func() error { _, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{}); return err }},
		{designs.TransactWriteItems, func() error { _, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{}); return err }},
	}
	for _, c := range calls {
		t.Run(string(c.op), func(t *testing.T) {
			outer, inner = nil, nil
			if err := c.call(); !errors.Is(err, stop) {
				t.Fatalf("error %v, want the route's refusal", err)
			}
			if len(outer) != 1 || outer[0] != c.op || len(inner) != 1 || inner[0] != c.op {
				t.Fatalf("routed as %v, then %v; want %s once each", outer, inner, c.op)
			}
		})
	}
}
