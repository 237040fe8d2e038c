package designs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Routed is a DB that sends each call to the client its Route picks for
// the call's operation, when the call is made: a seed that writes to memory
// until it is done, a loader that flushes before it reads. A Route error
// ends the call unsent.
type Routed struct {
	Route func(ctx context.Context, op Operation) (DB, error)
}

var _ DB = Routed{}

// send makes one call on the client r picks for op.
func send[I, O any](ctx context.Context, r Routed, op Operation, call func(DB, context.Context, I, ...func(*dynamodb.Options)) (O, error), in I, opts []func(*dynamodb.Options)) (O, error) {
	db, err := r.Route(ctx, op)
	if err != nil {
		var none O
		return none, err
	}
	return call(db, ctx, in, opts...)
}

func (r Routed) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return send(ctx, r, GetItem, DB.GetItem, in, opts)
}

func (r Routed) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return send(ctx, r, PutItem, DB.PutItem, in, opts)
}

func (r Routed) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return send(ctx, r, UpdateItem, DB.UpdateItem, in, opts)
}

func (r Routed) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return send(ctx, r, DeleteItem, DB.DeleteItem, in, opts)
}

func (r Routed) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return send(ctx, r, Query, DB.Query, in, opts)
}

func (r Routed) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return send(ctx, r, Scan, DB.Scan, in, opts)
}

func (r Routed) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return send(ctx, r, BatchGetItem, DB.BatchGetItem, in, opts)
}

func (r Routed) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return send(ctx, r, BatchWriteItem, DB.BatchWriteItem, in, opts)
}

func (r Routed) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return send(ctx, r, TransactGetItems, DB.TransactGetItems, in, opts)
}

func (r Routed) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return send(ctx, r, TransactWriteItems, DB.TransactWriteItems, in, opts)
}
