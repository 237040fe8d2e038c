package accountpool

import (
	"context"
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// AddUser is AP-12 (main table, PutItem on user_id#<email>): a user without
// a lease, whose data is an empty map that CreateLease fills. An email
// already present is designs.ErrAlreadyExists and leaves that user as it was.
func (t Table) AddUser(ctx context.Context, email string) (User, error) {
	if !validEmail(email) {
		return User{}, fmt.Errorf("%s: user %q: %w: not an email", AddUserID, email, designs.ErrInvalidInput)
	}
	u := User{Email: email}
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, newUserItem(u)); err != nil {
		return User{}, fmt.Errorf("%s: user %s: %w", AddUserID, email, err)
	}
	return u, nil
}

// GetUser is AP-09 (main table, GetItem on user_id#<email>): the user with
// the lease and account it holds, if any. An unknown email is
// designs.ErrNotFound.
func (t Table) GetUser(ctx context.Context, email string) (User, error) {
	if !validEmail(email) {
		return User{}, fmt.Errorf("%s: user %q: %w: not an email", GetUserID, email, designs.ErrInvalidInput)
	}
	it, err := designs.Get[userItem](ctx, t.DB, t.Name, key(UserKey(email)), true)
	if err != nil {
		return User{}, fmt.Errorf("%s: user %s: %w", GetUserID, email, err)
	}
	u := it.User
	u.Email = strings.TrimPrefix(it.PK, userPrefix)
	return u, nil
}
