package shop

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// isNew and isStored are the existence conditions the writes here use.
var (
	isNew    = expression.AttributeNotExists(expression.Name(Schema.PK))
	isStored = expression.AttributeExists(expression.Name(Schema.PK))
)

// getItem reads one item by its primary key into T (eventually consistent,
// half the read cost). A missing item is designs.ErrNotFound.
func getItem[T any](ctx context.Context, t Table, id designs.PatternID, pk, sk string) (T, error) {
	var v T
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name), Key: Schema.Key(pk, sk)})
	if err != nil {
		return v, fmt.Errorf("%s: %s %s: %w", id, pk, sk, err)
	}
	if out.Item == nil {
		return v, fmt.Errorf("%s: %s %s: %w", id, pk, sk, designs.ErrNotFound)
	}
	if err := attributevalue.UnmarshalMap(out.Item, &v); err != nil {
		return v, fmt.Errorf("%s: unmarshal: %w", id, err)
	}
	return v, nil
}

// listing is one page of a Query: the table or an index, a key condition,
// the page size and the cursor of the page before.
type listing struct {
	index string // empty for the table
	key   expression.KeyConditionBuilder
	size  int
	after designs.Cursor
}

// queryPage runs one listing page into T, in ascending sort key order. It
// asks for one item more than the page holds: when that item exists, Next
// is the key of the page's last item, so Next is empty exactly when nothing
// follows (DynamoDB's own LastEvaluatedKey is set after a page that happens
// to end the results). A page may still come back short, with a Next, when
// it reaches Query's 1 MB limit.
func queryPage[T any](ctx context.Context, t Table, id designs.PatternID, l listing) (Page[T], error) {
	if l.size < 1 || l.size > MaxPageSize {
		return Page[T]{}, fmt.Errorf("%s: page size %d: %w: want 1 to %d", id, l.size, designs.ErrInvalidInput, MaxPageSize)
	}
	start, err := l.after.Decode()
	if err != nil {
		return Page[T]{}, fmt.Errorf("%s: %w", id, err)
	}
	expr, err := expression.NewBuilder().WithKeyCondition(l.key).Build()
	if err != nil {
		return Page[T]{}, fmt.Errorf("%s: build: %w", id, err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ExclusiveStartKey:         start,
		Limit:                     aws.Int32(int32(l.size + 1)),
	}
	if l.index != "" {
		in.IndexName = aws.String(l.index)
	}
	out, err := t.DB.Query(ctx, in)
	if err != nil {
		return Page[T]{}, fmt.Errorf("%s: query: %w", id, err)
	}
	items, last := out.Items, out.LastEvaluatedKey
	if len(items) > l.size {
		items = items[:l.size]
		last = pageKey(items[l.size-1], l.index)
	}
	var page Page[T]
	if err := attributevalue.UnmarshalListOfMaps(items, &page.Items); err != nil {
		return Page[T]{}, fmt.Errorf("%s: unmarshal: %w", id, err)
	}
	if page.Next, err = designs.EncodeCursor(last); err != nil {
		return Page[T]{}, fmt.Errorf("%s: %w", id, err)
	}
	return page, nil
}

// pageKey is the ExclusiveStartKey that resumes a Query after item: the
// table's key plus the key of the index read.
func pageKey(item map[string]types.AttributeValue, index string) map[string]types.AttributeValue {
	names := []string{Schema.PK, Schema.SK}
	for _, ix := range append(append([]designs.Index{}, Schema.LSIs...), Schema.GSIs...) {
		if ix.Name == index {
			names = append(names, ix.PK, ix.SK)
		}
	}
	key := map[string]types.AttributeValue{}
	for _, n := range names {
		if v, ok := item[n]; ok && n != "" {
			key[n] = v
		}
	}
	return key
}

// partition is the key condition of a whole partition's items of one type.
func partition(pkAttr, pk, skAttr, prefix string) expression.KeyConditionBuilder {
	return expression.Key(pkAttr).Equal(expression.Value(pk)).
		And(expression.Key(skAttr).BeginsWith(prefix))
}
