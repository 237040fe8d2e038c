package shop

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// getItem reads one item by its primary key into T (eventually consistent,
// half the read cost). A missing item is designs.ErrNotFound.
func getItem[T any](ctx context.Context, t Table, id designs.PatternID, pk, sk string) (T, error) {
	v, err := designs.Get[T](ctx, t.DB, t.Name, Schema.Key(pk, sk), false)
	if err != nil {
		return v, fmt.Errorf("%s: %s %s: %w", id, pk, sk, err)
	}
	return v, nil
}

// queryPage runs one listing page of q into T, in ascending sort key order
// and eventually consistent. Next is empty exactly when nothing follows
// (designs.Schema.QueryPage). A size outside 1..MaxPageSize is
// designs.ErrInvalidInput.
func queryPage[T any](ctx context.Context, t Table, id designs.PatternID, q designs.PageQuery) (Page[T], error) {
	if q.Size < 1 || q.Size > MaxPageSize {
		return Page[T]{}, fmt.Errorf("%s: page size %d: %w: want 1 to %d", id, q.Size, designs.ErrInvalidInput, MaxPageSize)
	}
	q.Table = t.Name
	items, next, err := Schema.QueryPage(ctx, t.DB, q)
	if err != nil {
		return Page[T]{}, fmt.Errorf("%s: query: %w", id, err)
	}
	page := Page[T]{Next: next}
	if err := attributevalue.UnmarshalListOfMaps(items, &page.Items); err != nil {
		return Page[T]{}, fmt.Errorf("%s: unmarshal: %w", id, err)
	}
	return page, nil
}

// partition is the key condition of a whole partition's items of one type.
func partition(pkAttr, pk, skAttr, prefix string) expression.KeyConditionBuilder {
	return expression.Key(pkAttr).Equal(expression.Value(pk)).
		And(expression.Key(skAttr).BeginsWith(prefix))
}
