package invoicing

import (
	"context"
	"fmt"

	"github.com/ddbharness/ddbharness/designs"
)

// CreateAccount is AP-01 (main table, PutItem): the account is a singleton,
// so a conditional put makes it exactly once. A second create, with any
// email, gets designs.ErrAlreadyExists.
func (t Table) CreateAccount(ctx context.Context, a Account) error {
	if a.Email == "" || a.Name == "" {
		return fmt.Errorf("%s: account: %w: name and email are required", CreateAccountID, designs.ErrInvalidInput)
	}
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, accountItem{keys{AccountKey(), AccountKey(), typeAccount}, a}); err != nil {
		return fmt.Errorf("%s: account: %w", CreateAccountID, err)
	}
	return nil
}
