package services

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// ListHistory is AP-03 (main table, Query, ScanIndexForward false): the
// client's services for the History screen, latest service date first (a
// day's services newest recorded first), n per page; pass the returned Next
// as after for the page that follows. Reads are strongly consistent, so a
// service just recorded shows at once. A client with no services has an
// empty history: the table holds no client item to tell "unknown" apart.
func (t Table) ListHistory(ctx context.Context, clientID string, n int, after designs.Cursor) (Page, error) {
	if clientID == "" {
		return Page{}, fmt.Errorf("%s: %w: client ID is required", ListHistoryID, designs.ErrInvalidInput)
	}
	pk := ClientPK(clientID)
	return t.list(ctx, listing{
		id: ListHistoryID, pkAttr: Schema.PK, pk: pk,
		key: expression.Key(Schema.PK).Equal(expression.Value(pk)).
			And(expression.Key(Schema.SK).BeginsWith(servicePrefix)),
		backwards: true,
	}, n, after)
}

// listing is one paged Query of service items in one partition of the table
// or of an index.
type listing struct {
	id         designs.PatternID
	index      string // empty: the table
	pkAttr, pk string // the partition read; a cursor must come from it
	key        expression.KeyConditionBuilder
	backwards  bool
}

// list reads one page of l, strongly consistent on the table (indexes offer
// only eventual consistency); Next is empty exactly when nothing follows
// (designs.Schema.QueryPage). A page size outside 1..MaxPageSize, or a
// cursor from another partition (another client, year or program), is
// designs.ErrInvalidInput, before any call.
func (t Table) list(ctx context.Context, l listing, n int, after designs.Cursor) (Page, error) {
	if n < 1 || n > MaxPageSize {
		return Page{}, fmt.Errorf("%s: page size %d: %w: want 1 to %d", l.id, n, designs.ErrInvalidInput, MaxPageSize)
	}
	start, err := after.Decode()
	if err != nil {
		return Page{}, fmt.Errorf("%s: %w", l.id, err)
	}
	if pk, ok := start[l.pkAttr].(*types.AttributeValueMemberS); start != nil && (!ok || pk.Value != l.pk) {
		return Page{}, fmt.Errorf("%s: %s: cursor: %w: it belongs to another listing", l.id, l.pk, designs.ErrInvalidInput)
	}
	items, next, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{
		Table: t.Name, Index: l.index, Key: l.key, Backward: l.backwards,
		Consistent: l.index == "", Size: n, After: after,
	})
	if err != nil {
		return Page{}, fmt.Errorf("%s: %s: %w", l.id, l.pk, err)
	}
	page := Page{Next: next}
	if err := attributevalue.UnmarshalListOfMaps(items, &page.Services); err != nil {
		return Page{}, fmt.Errorf("%s: %s: unmarshal services: %w", l.id, l.pk, err)
	}
	return page, nil
}
