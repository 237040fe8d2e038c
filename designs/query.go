package designs

import (
	"cmp"
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// PageQuery is one page of a listing: the table or one of its indexes, the key
// condition, the order and consistency of the read, the page size and the
// cursor of the page before. Callers check Size against their own maximum.
type PageQuery struct {
	Table      string
	Index      string // empty: the table itself
	Key        expression.KeyConditionBuilder
	Backward   bool // descending sort key order (ScanIndexForward false)
	Consistent bool // strongly consistent; the table and its LSIs only
	Size       int  // items a page holds, 1 or more
	After      Cursor
	// Filter, when set, keeps the items it holds for. DynamoDB applies it
	// after reading and charges every item it read, kept or not; QueryPage
	// reads on, Size+1 items a call, until the page is full or the range
	// ends, so a filter that keeps few items costs many reads (declare it
	// in the catalog's Filters).
	Filter *expression.ConditionBuilder
}

// QueryPage reads one page of q. It asks DynamoDB for one item more than
// the page holds: when that item exists, next is the key of the page's last
// item, so next is empty exactly when nothing follows (DynamoDB's own
// LastEvaluatedKey is also set after a full page that happens to end the
// results, which would cost the caller an empty last page). A page may still
// come back short, with a next, when it reaches Query's 1 MB limit; under a
// Filter it is full unless the range ended. A Size below 1, or a cursor that
// is not one, is ErrInvalidInput.
func (s Schema) QueryPage(ctx context.Context, db DB, q PageQuery) (items []map[string]types.AttributeValue, next Cursor, err error) {
	if q.Size < 1 {
		return nil, "", fmt.Errorf("page size %d: %w: want 1 or more", q.Size, ErrInvalidInput)
	}
	start, err := q.After.Decode()
	if err != nil {
		return nil, "", err
	}
	b := expression.NewBuilder().WithKeyCondition(q.Key)
	if q.Filter != nil {
		b = b.WithFilter(*q.Filter)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, "", fmt.Errorf("build: %w", err)
	}
	if err := s.checkKey(q.Index, expr); err != nil {
		return nil, "", err
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(q.Table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ScanIndexForward:          aws.Bool(!q.Backward),
		ExclusiveStartKey:         start,
		Limit:                     aws.Int32(int32(q.Size + 1)),
		FilterExpression:          expr.Filter(),
	}
	if q.Index != "" {
		in.IndexName = aws.String(q.Index)
	}
	if q.Consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	var last map[string]types.AttributeValue
	for {
		out, err := db.Query(ctx, in)
		if err != nil {
			return nil, "", err
		}
		items, last = append(items, out.Items...), out.LastEvaluatedKey
		if q.Filter == nil || len(items) > q.Size || last == nil {
			break
		}
		in.ExclusiveStartKey = last
	}
	if len(items) > q.Size {
		items = items[:q.Size]
		last = s.resumeKey(items[q.Size-1], q.Index)
	}
	if next, err = EncodeCursor(last); err != nil {
		return nil, "", err
	}
	return items, next, nil
}

// resumeKey is the ExclusiveStartKey that resumes a Query of index (empty:
// the table) after item: the table's key plus the index's.
func (s Schema) resumeKey(item map[string]types.AttributeValue, index string) map[string]types.AttributeValue {
	names := []string{s.PK, s.SK}
	if ix, ok := s.ItemSchema().Index(index); ok {
		names = append(names, ix.KeyAttrs()...)
	}
	key := map[string]types.AttributeValue{}
	for _, n := range names {
		if v, ok := item[n]; ok && n != "" {
			key[n] = v
		}
	}
	return key
}

// checkKey refuses, before any call, a key condition that DynamoDB would
// refuse for the table or index (ddbitem.Schema.CheckKeyCondition): its
// ValidationException wrapped in ErrInvalidInput. A query of an index the
// schema does not declare is left to DynamoDB.
func (s Schema) checkKey(index string, expr expression.Expression) error {
	items := s.ItemSchema()
	if _, ok := items.Index(index); index != "" && !ok {
		return nil
	}
	c := ddbitem.Condition{Expr: aws.ToString(expr.KeyCondition()), Names: expr.Names(), Values: expr.Values()}
	if err := items.CheckKeyCondition(index, c); err != nil {
		return fmt.Errorf("%w: query of %s: %w", ErrInvalidInput, cmp.Or(index, "the table"), err)
	}
	return nil
}
