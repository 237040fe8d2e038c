package agencies

import (
	"context"
	"fmt"

	"github.com/ddbharness/ddbharness/designs"
)

// CreateMember is AP-04 (main table, TransactWriteItems): a condition check
// that the agency exists and a put of the member item only if its key is
// free, atomically. Unknown agency: designs.ErrNotFound; the user already a
// member of it: designs.ErrAlreadyExists; either way nothing is written.
// Modified and ModifiedBy start as Created and CreatedBy.
func (t Table) CreateMember(ctx context.Context, m Member) error {
	if m.AgencyID == "" || m.IdpID == "" || !m.valid() {
		return fmt.Errorf("%s: member %q of %q: %w: agency, idpid, created and createdBy are required", CreateMemberID, m.IdpID, m.AgencyID, designs.ErrInvalidInput)
	}
	m.Audit = m.made()
	tx := designs.Tx{Table: t.Name}
	tx.Check(Schema.Key(AgencyPK(m.AgencyID), AgencySK(m.AgencyID)), Schema.IsStored(), designs.Because(designs.ErrNotFound))
	tx.Put(newMemberItem(m), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: member %s of %s: %w", CreateMemberID, m.IdpID, m.AgencyID, err)
	}
	return nil
}

// UpdateMember is AP-05 (main table, UpdateItem). A member's only attributes
// besides its keys are the audit pair, so an update records e as
// modified/modifiedBy and returns the member as stored afterwards; GSI2
// carries the change once it catches up. Unknown member: designs.ErrNotFound.
func (t Table) UpdateMember(ctx context.Context, agencyID, idpID string, e Edit) (Member, error) {
	if agencyID == "" || idpID == "" || !e.valid() {
		return Member{}, fmt.Errorf("%s: member %q of %q: %w: agency, idpid, and who and when are required", UpdateMemberID, idpID, agencyID, designs.ErrInvalidInput)
	}
	m, err := designs.Update[Member](ctx, t.DB, t.Name, Schema.Key(AgencyPK(agencyID), MemberSK(idpID)), edited(e), Schema.IsStored())
	if designs.IsConditionFailed(err) {
		return Member{}, fmt.Errorf("%s: member %s of %s: %w", UpdateMemberID, idpID, agencyID, designs.ErrNotFound)
	}
	if err != nil {
		return Member{}, fmt.Errorf("%s: member %s of %s: %w", UpdateMemberID, idpID, agencyID, err)
	}
	return m, nil
}

// DeleteMember is AP-06 (main table, DeleteItem): it removes one membership,
// and with it the member's GSI1 and GSI2 entries. Unknown member:
// designs.ErrNotFound, so a caller can tell a repeat from a delete.
func (t Table) DeleteMember(ctx context.Context, agencyID, idpID string) error {
	if agencyID == "" || idpID == "" {
		return fmt.Errorf("%s: member %q of %q: %w: agency and idpid are required", DeleteMemberID, idpID, agencyID, designs.ErrInvalidInput)
	}
	if err := designs.DeleteStored(ctx, t.DB, t.Name, Schema, Schema.Key(AgencyPK(agencyID), MemberSK(idpID))); err != nil {
		return fmt.Errorf("%s: member %s of %s: %w", DeleteMemberID, idpID, agencyID, err)
	}
	return nil
}
