package accountpool

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// Document paths inside a lease's and a user's data map.
const (
	pathLeaseState  = attrData + ".state"
	pathUserLease   = attrData + ".lease"
	pathUserAccount = attrData + ".account"
)

// CreateLease is AP-10 (main table, TransactWriteItems): in one transaction
// it writes the active lease, adds its ID to lease_status#active, moves the
// account from available to leased (item and sets) and records the lease on
// the user. The account's condition (data = available) is what keeps an
// account from being leased twice, however many callers race for it.
// Checks fail in this order: a lease ID in use is designs.ErrAlreadyExists;
// an unknown account designs.ErrNotFound; an account that is not available
// ErrAccountNotAvailable; an unknown user designs.ErrNotFound; a user
// who holds a lease ErrUserHasLease. A refused lease changes nothing.
func (t Table) CreateLease(ctx context.Context, leaseID, accountID, email string) (Lease, error) {
	switch {
	case leaseID == "":
		return Lease{}, fmt.Errorf("%s: lease: %w: empty ID", CreateLeaseID, designs.ErrInvalidInput)
	case !validAccountID(accountID):
		return Lease{}, fmt.Errorf("%s: account %q: %w: want %d digits", CreateLeaseID, accountID, designs.ErrInvalidInput, AccountIDLen)
	case !validEmail(email):
		return Lease{}, fmt.Errorf("%s: user %q: %w: not an email", CreateLeaseID, email, designs.ErrInvalidInput)
	}
	l := Lease{ID: leaseID, State: LeaseActive, AccountID: accountID, UserID: email}
	isAvailable := expression.Name(attrData).Equal(expression.Value(StateAvailable))
	hasNoLease := Schema.IsStored().And(expression.AttributeNotExists(expression.Name(pathUserLease)))
	recordLease := expression.Set(expression.Name(pathUserLease), expression.Value(leaseID)).
		Set(expression.Name(pathUserAccount), expression.Value(accountID))

	w := designs.Tx{Table: t.Name}
	w.Put(newLeaseItem(l), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	w.Update(key(ActiveLeasesKey()), addIDs(leaseID), noCond, nil)
	w.Update(key(AccountKey(accountID)), setState(StateLeased), isAvailable, designs.AbsentOr(designs.ErrNotFound, ErrAccountNotAvailable))
	w.Update(key(AccountStatusKey(StateAvailable)), deleteIDs(accountID), noCond, nil)
	w.Update(key(AccountStatusKey(StateLeased)), addIDs(accountID), noCond, nil)
	w.Update(key(UserKey(email)), recordLease, hasNoLease, designs.AbsentOr(designs.ErrNotFound, ErrUserHasLease))
	if err := w.Write(ctx, t.DB); err != nil {
		return Lease{}, fmt.Errorf("%s: lease %s of account %s to %s: %w", CreateLeaseID, leaseID, accountID, email, err)
	}
	return l, nil
}

// DeleteLease is AP-11 (main table, GetItem then TransactWriteItems): it
// reads the lease for its account and user, then in one transaction deletes
// the lease, takes its ID out of lease_status#active, returns the account to
// available (item and sets) and clears the user's lease. It returns the lease
// as it stood. An unknown or already ended lease is ErrLeaseNotActive,
// also when a concurrent delete ends it between the read and the write.
func (t Table) DeleteLease(ctx context.Context, leaseID string) (Lease, error) {
	if leaseID == "" {
		return Lease{}, fmt.Errorf("%s: lease: %w: empty ID", DeleteLeaseID, designs.ErrInvalidInput)
	}
	l, err := t.getLease(ctx, leaseID)
	if errors.Is(err, designs.ErrNotFound) {
		return Lease{}, fmt.Errorf("%s: lease %s: %w", DeleteLeaseID, leaseID, ErrLeaseNotActive)
	}
	if err != nil {
		return Lease{}, fmt.Errorf("%s: lease %s: %w", DeleteLeaseID, leaseID, err)
	}
	isActive := expression.Name(pathLeaseState).Equal(expression.Value(LeaseActive))
	isLeased := expression.Name(attrData).Equal(expression.Value(StateLeased))
	holdsLease := expression.Name(pathUserLease).Equal(expression.Value(leaseID))
	clearLease := expression.Remove(expression.Name(pathUserLease)).Remove(expression.Name(pathUserAccount))

	w := designs.Tx{Table: t.Name}
	w.Delete(key(LeaseKey(leaseID)), isActive, designs.Because(ErrLeaseNotActive))
	w.Update(key(ActiveLeasesKey()), deleteIDs(leaseID), noCond, nil)
	// The next two conditions hold while the lease is active; a failure
	// means the items disagree and comes back as the cancellation itself.
	w.Update(key(AccountKey(l.AccountID)), setState(StateAvailable), isLeased, nil)
	w.Update(key(AccountStatusKey(StateLeased)), deleteIDs(l.AccountID), noCond, nil)
	w.Update(key(AccountStatusKey(StateAvailable)), addIDs(l.AccountID), noCond, nil)
	w.Update(key(UserKey(l.UserID)), clearLease, holdsLease, nil)
	if err := w.Write(ctx, t.DB); err != nil {
		return Lease{}, fmt.Errorf("%s: lease %s: %w", DeleteLeaseID, leaseID, err)
	}
	return l, nil
}

// GetLease is AP-08 (main table, GetItem on lease_id#<ID>): the lease with
// its state, account and user. An unknown (or ended, hence deleted) lease is
// designs.ErrNotFound.
func (t Table) GetLease(ctx context.Context, leaseID string) (Lease, error) {
	if leaseID == "" {
		return Lease{}, fmt.Errorf("%s: lease: %w: empty ID", GetLeaseID, designs.ErrInvalidInput)
	}
	l, err := t.getLease(ctx, leaseID)
	if err != nil {
		return Lease{}, fmt.Errorf("%s: lease %s: %w", GetLeaseID, leaseID, err)
	}
	return l, nil
}

// getLease reads a lease, strongly consistent; its ID lives only in the key.
func (t Table) getLease(ctx context.Context, leaseID string) (Lease, error) {
	it, err := designs.Get[leaseItem](ctx, t.DB, t.Name, key(LeaseKey(leaseID)), true)
	if err != nil {
		return Lease{}, err
	}
	l := it.Lease
	l.ID = strings.TrimPrefix(it.PK, leasePrefix)
	return l, nil
}
