package agencies

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// AgencyPage is one page of AP-09, oldest agency first. Next is empty
// exactly when no agency follows.
type AgencyPage struct {
	Agencies []Agency
	Next     designs.Cursor
}

// MemberPage is one page of AP-08 or AP-10. Next is empty exactly when no
// member follows.
type MemberPage struct {
	Members []Member
	Next    designs.Cursor
}

// ListAgencyMembers is AP-08 (main table, Query, strongly consistent): the
// agency's partition from "MEMBER#" on, so the agency item stays out; members
// come in idpid order, n at most, from after on. An unknown agency has no
// members: an empty page, not an error.
func (t Table) ListAgencyMembers(ctx context.Context, agencyID string, n int, after designs.Cursor) (MemberPage, error) {
	if agencyID == "" {
		return MemberPage{}, fmt.Errorf("%s: agency: %w: ID is required", ListAgencyMembersID, designs.ErrInvalidInput)
	}
	key := expression.Key(Schema.PK).Equal(expression.Value(AgencyPK(agencyID))).
		And(expression.Key(Schema.SK).BeginsWith(MemberPrefix))
	items, next, err := t.page(ctx, query{index: designs.MainTable, key: key}, n, after)
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: agency %s: %w", ListAgencyMembersID, agencyID, err)
	}
	members, err := decodeAll[Member](items)
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: agency %s: unmarshal: %w", ListAgencyMembersID, agencyID, err)
	}
	return MemberPage{Members: members, Next: next}, nil
}

// ListAgencies is AP-09 (GSI1, Query type = "Agency"): all agencies, oldest
// first, n at most, from after on. Member items sit in GSI1 under "Member",
// another partition, so none appear. GSI1 is eventually consistent: a
// just-written agency may be missing or stale for a moment.
func (t Table) ListAgencies(ctx context.Context, n int, after designs.Cursor) (AgencyPage, error) {
	return t.listAgencies(ctx, agenciesKey(), n, after)
}

// ListAgenciesCreated is AP-09 (GSI1, Query) narrowed to the agencies
// created between from and to, both included: the same partition, with
// created BETWEEN on the sort key.
func (t Table) ListAgenciesCreated(ctx context.Context, from, to time.Time, n int, after designs.Cursor) (AgencyPage, error) {
	if !validTime(from) || !validTime(to) || to.Before(from) {
		return AgencyPage{}, fmt.Errorf("%s: window %s..%s: %w: want from <= to, years 1 to 9999", ListAgenciesID, from, to, designs.ErrInvalidInput)
	}
	key := agenciesKey().And(expression.Key(AttrCreated).Between(expression.Value(Stamp(from)), expression.Value(Stamp(to))))
	return t.listAgencies(ctx, key, n, after)
}

func agenciesKey() expression.KeyConditionBuilder {
	return expression.Key(AttrType).Equal(expression.Value(TypeAgency))
}

func (t Table) listAgencies(ctx context.Context, key expression.KeyConditionBuilder, n int, after designs.Cursor) (AgencyPage, error) {
	items, next, err := t.page(ctx, query{index: GSI1, key: key, keyAttrs: []string{AttrType, AttrCreated}}, n, after)
	if err != nil {
		return AgencyPage{}, fmt.Errorf("%s: %w", ListAgenciesID, err)
	}
	agencies, err := decodeAll[Agency](items)
	if err != nil {
		return AgencyPage{}, fmt.Errorf("%s: unmarshal: %w", ListAgenciesID, err)
	}
	return AgencyPage{Agencies: agencies, Next: next}, nil
}

// ListMemberships is AP-10 (GSI2, Query idpid = idpID): every agency the
// user belongs to, in agencyId order, n at most, from after on. GSI2 is
// sparse (agency items carry no idpid) and eventually consistent. An
// unknown user: an empty page.
func (t Table) ListMemberships(ctx context.Context, idpID string, n int, after designs.Cursor) (MemberPage, error) {
	if idpID == "" {
		return MemberPage{}, fmt.Errorf("%s: idpid: %w: required", ListMembershipsID, designs.ErrInvalidInput)
	}
	key := expression.Key(AttrIdpID).Equal(expression.Value(idpID))
	items, next, err := t.page(ctx, query{index: GSI2, key: key, keyAttrs: []string{AttrIdpID, AttrAgencyID}}, n, after)
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: idpid %s: %w", ListMembershipsID, idpID, err)
	}
	members, err := decodeAll[Member](items)
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: idpid %s: unmarshal: %w", ListMembershipsID, idpID, err)
	}
	return MemberPage{Members: members, Next: next}, nil
}

// query is what a listing asks of page: the index (or designs.MainTable),
// its key condition, and the index's key attributes besides the table's.
type query struct {
	index    string
	key      expression.KeyConditionBuilder
	keyAttrs []string
}

// page reads up to n items in key order from after on. It asks for one item
// more than it returns: when that item exists, Next is built from the last
// returned item's keys, so Next is empty exactly when nothing follows. A
// page that DynamoDB cut short (1 MB) resumes from its LastEvaluatedKey.
// Main-table pages are strongly consistent; GSIs only offer eventual reads.
func (t Table) page(ctx context.Context, q query, n int, after designs.Cursor) ([]map[string]types.AttributeValue, designs.Cursor, error) {
	if n < 1 || n > MaxPageSize {
		return nil, "", fmt.Errorf("page size %d: %w: want 1 to %d", n, designs.ErrInvalidInput, MaxPageSize)
	}
	start, err := after.Decode()
	if err != nil {
		return nil, "", err
	}
	expr, err := expression.NewBuilder().WithKeyCondition(q.key).Build()
	if err != nil {
		return nil, "", fmt.Errorf("build: %w", err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ExclusiveStartKey:         start,
		Limit:                     aws.Int32(int32(n + 1)),
	}
	if q.index == designs.MainTable {
		in.ConsistentRead = aws.Bool(true)
	} else {
		in.IndexName = aws.String(q.index)
	}
	out, err := t.DB.Query(ctx, in)
	if err != nil {
		return nil, "", err
	}
	if len(out.Items) <= n {
		next, err := designs.EncodeCursor(out.LastEvaluatedKey)
		return out.Items, next, err
	}
	items := out.Items[:n]
	last := items[n-1]
	key := map[string]types.AttributeValue{}
	for _, attr := range append([]string{Schema.PK, Schema.SK}, q.keyAttrs...) {
		key[attr] = last[attr]
	}
	next, err := designs.EncodeCursor(key)
	return items, next, err
}
