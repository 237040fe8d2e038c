package accountpool

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// The listings read one status item each. The doc writes them as a Query on
// the status key; with no sort key a partition holds one item, so GetItem is
// the same read, and a listing has no pages: it is the whole set, at most one
// 400 KB item. Reads are strongly consistent so that a listing shows the
// write before it. A status item that was never written is an empty listing.

// ListAllAccounts is AP-01 (main table, GetItem on account_status#all): the
// ID of every account in the pool, whatever its state, in ascending order.
func (t Table) ListAllAccounts(ctx context.Context) ([]string, error) {
	return t.readSet(ctx, ListAllAccountsID, AllAccountsKey())
}

// ListAvailableAccounts is AP-02 (main table, GetItem on
// account_status#available): the IDs of the accounts free to lease, in
// ascending order.
func (t Table) ListAvailableAccounts(ctx context.Context) ([]string, error) {
	return t.readSet(ctx, ListAvailableAccountsID, AccountStatusKey(StateAvailable))
}

// ListInitialAccounts is AP-03 (main table, GetItem on
// account_status#initial): the IDs of the accounts not yet made available,
// in ascending order.
func (t Table) ListInitialAccounts(ctx context.Context) ([]string, error) {
	return t.readSet(ctx, ListInitialAccountsID, AccountStatusKey(StateInitial))
}

// ListActiveLeases is AP-07 (main table, GetItem on lease_status#active): the
// IDs of every active lease, in ascending order (KSUIDs: oldest first).
func (t Table) ListActiveLeases(ctx context.Context) ([]string, error) {
	return t.readSet(ctx, ListActiveLeasesID, ActiveLeasesKey())
}

// readSet returns the sorted IDs of the status item at pk; a string set has
// no order of its own.
func (t Table) readSet(ctx context.Context, id designs.PatternID, pk string) ([]string, error) {
	expr, err := expression.NewBuilder().WithProjection(expression.NamesList(expression.Name(attrData))).Build()
	if err != nil {
		return nil, fmt.Errorf("%s: build: %w", id, err)
	}
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                aws.String(t.Name),
		Key:                      key(pk),
		ProjectionExpression:     expr.Projection(),
		ExpressionAttributeNames: expr.Names(),
		ConsistentRead:           aws.Bool(true),
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", id, pk, err)
	}
	var it statusItem
	if err := attributevalue.UnmarshalMap(out.Item, &it); err != nil {
		return nil, fmt.Errorf("%s: %s: decode: %w", id, pk, err)
	}
	ids := it.IDs
	if ids == nil {
		ids = []string{}
	}
	slices.Sort(ids)
	return ids, nil
}
