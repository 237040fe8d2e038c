package accountpool

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// AddAccount is AP-05 (main table, TransactWriteItems): the account item,
// initial, and its ID added to the all and initial sets, all or nothing. An
// ID already in the pool is designs.ErrAlreadyExists and leaves every item
// as it was; an ID that is not AccountIDLen digits is designs.ErrInvalidInput.
func (t Table) AddAccount(ctx context.Context, id string) (Account, error) {
	if !validAccountID(id) {
		return Account{}, fmt.Errorf("%s: account %q: %w: want %d digits", AddAccountID, id, designs.ErrInvalidInput, AccountIDLen)
	}
	a := Account{ID: id, State: StateInitial}
	w := designs.Tx{Table: t.Name}
	w.Put(newAccountItem(a), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	w.Update(key(AllAccountsKey()), addIDs(id), noCond, nil)
	w.Update(key(AccountStatusKey(StateInitial)), addIDs(id), noCond, nil)
	if err := w.Write(ctx, t.DB); err != nil {
		return Account{}, fmt.Errorf("%s: account %s: %w", AddAccountID, id, err)
	}
	return a, nil
}

// RemoveAccount is AP-04 (main table, TransactWriteItems): the account item
// deleted and its ID taken out of the all set and of every state set, all or
// nothing. The doc names only the all set; the state sets follow so no
// listing keeps a removed account. An unknown account is designs.ErrNotFound;
// a leased one is ErrAccountLeased (its lease would point nowhere).
func (t Table) RemoveAccount(ctx context.Context, id string) error {
	if !validAccountID(id) {
		return fmt.Errorf("%s: account %q: %w: want %d digits", RemoveAccountID, id, designs.ErrInvalidInput, AccountIDLen)
	}
	w := designs.Tx{Table: t.Name}
	w.Delete(key(AccountKey(id)), notLeased, designs.AbsentOr(designs.ErrNotFound, ErrAccountLeased))
	w.Update(key(AllAccountsKey()), deleteIDs(id), noCond, nil)
	for _, s := range AccountStates {
		w.Update(key(AccountStatusKey(s)), deleteIDs(id), noCond, nil)
	}
	if err := w.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: account %s: %w", RemoveAccountID, id, err)
	}
	return nil
}

// MarkAccountAvailable is AP-06 (main table, TransactWriteItems): the account
// set to available, its ID added to the available set and deleted from every
// other state set (the all set keeps it), all or nothing. Marking an
// available account again changes nothing. An unknown account is
// designs.ErrNotFound; a leased one is ErrAccountLeased: only ending
// its lease (AP-11) frees it, or the lease would share it with the next user.
func (t Table) MarkAccountAvailable(ctx context.Context, id string) (Account, error) {
	if !validAccountID(id) {
		return Account{}, fmt.Errorf("%s: account %q: %w: want %d digits", MarkAccountAvailableID, id, designs.ErrInvalidInput, AccountIDLen)
	}
	w := designs.Tx{Table: t.Name}
	w.Update(key(AccountKey(id)), setState(StateAvailable), notLeased, designs.AbsentOr(designs.ErrNotFound, ErrAccountLeased))
	w.Update(key(AccountStatusKey(StateAvailable)), addIDs(id), noCond, nil)
	for _, s := range AccountStates {
		if s != StateAvailable {
			w.Update(key(AccountStatusKey(s)), deleteIDs(id), noCond, nil)
		}
	}
	if err := w.Write(ctx, t.DB); err != nil {
		return Account{}, fmt.Errorf("%s: account %s: %w", MarkAccountAvailableID, id, err)
	}
	return Account{ID: id, State: StateAvailable}, nil
}

// setState is the update that moves an account item to state s.
func setState(s AccountState) expression.UpdateBuilder {
	return expression.Set(expression.Name(attrData), expression.Value(s))
}
