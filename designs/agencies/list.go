package agencies

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

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
	members, next, err := page[Member](ctx, t, designs.PageQuery{Key: key, Size: n, After: after})
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: agency %s: %w", ListAgencyMembersID, agencyID, err)
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
	agencies, next, err := page[Agency](ctx, t, designs.PageQuery{Index: GSI1, Key: key, Size: n, After: after})
	if err != nil {
		return AgencyPage{}, fmt.Errorf("%s: %w", ListAgenciesID, err)
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
	members, next, err := page[Member](ctx, t, designs.PageQuery{Index: GSI2, Key: key, Size: n, After: after})
	if err != nil {
		return MemberPage{}, fmt.Errorf("%s: idpid %s: %w", ListMembershipsID, idpID, err)
	}
	return MemberPage{Members: members, Next: next}, nil
}

// page reads one page of q into T, in key order: Next is empty exactly when
// nothing follows (designs.Schema.QueryPage). Main-table pages are strongly
// consistent; GSIs only offer eventual reads. A size outside 1..MaxPageSize
// is designs.ErrInvalidInput.
func page[T any](ctx context.Context, t Table, q designs.PageQuery) ([]T, designs.Cursor, error) {
	if q.Size < 1 || q.Size > MaxPageSize {
		return nil, "", fmt.Errorf("page size %d: %w: want 1 to %d", q.Size, designs.ErrInvalidInput, MaxPageSize)
	}
	q.Table, q.Consistent = t.Name, q.Index == ""
	items, next, err := Schema.QueryPage(ctx, t.DB, q)
	if err != nil {
		return nil, "", err
	}
	out, err := decodeAll[T](items)
	if err != nil {
		return nil, "", fmt.Errorf("unmarshal: %w", err)
	}
	return out, next, nil
}
