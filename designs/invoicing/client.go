package invoicing

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// CreateClient is AP-02 (main table, TransactWriteItems): the client item
// and its email item are written together, each only if new. A taken email
// is ErrEmailTaken, a taken client ID designs.ErrAlreadyExists; in
// both cases neither item is written.
func (t Table) CreateClient(ctx context.Context, c Client) error {
	if c.ID == "" || c.Email == "" {
		return fmt.Errorf("%s: client: %w: ID and email are required", CreateClientID, designs.ErrInvalidInput)
	}
	tx := designs.Tx{Table: t.Name}
	tx.Put(newClientItem(c), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	tx.Put(newClientEmailItem(c.Email, c.ID), Schema.IsNew(), designs.Because(ErrEmailTaken))
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: client %s: %w", CreateClientID, c.ID, err)
	}
	return nil
}

// UpdateClient is AP-05 (main table, TransactWriteItems): it replaces the
// client's name, email and address. A changed email moves the email item in
// the same transaction: the new one must be free (ErrEmailTaken), the
// old one must still belong to this client. The client is read first, and
// the write holds only if its email is still the one read, so a concurrent
// change is designs.ErrConflict rather than a lost update. Unknown client:
// designs.ErrNotFound.
func (t Table) UpdateClient(ctx context.Context, c Client) (Client, error) {
	if c.ID == "" || c.Email == "" {
		return Client{}, fmt.Errorf("%s: client: %w: ID and email are required", UpdateClientID, designs.ErrInvalidInput)
	}
	old, err := designs.Get[Client](ctx, t.DB, t.Name, Schema.Key(ClientPK(c.ID), ClientSK(c.ID)), true)
	if err != nil {
		return Client{}, fmt.Errorf("%s: client %s: %w", UpdateClientID, c.ID, err)
	}
	update := expression.Set(expression.Name("Name"), expression.Value(c.Name)).
		Set(expression.Name("Email"), expression.Value(c.Email)).
		Set(expression.Name("Address"), expression.Value(c.Address))
	unchanged := expression.Name("Email").Equal(expression.Value(old.Email))

	tx := designs.Tx{Table: t.Name}
	tx.Update(Schema.Key(ClientPK(c.ID), ClientSK(c.ID)), update, Schema.IsStored().And(unchanged), designs.Because(designs.ErrConflict))
	if c.Email != old.Email {
		ownEmail := expression.Name("ClientID").Equal(expression.Value(c.ID))
		tx.Delete(Schema.Key(ClientEmailKey(old.Email), ClientEmailKey(old.Email)), ownEmail, designs.Because(designs.ErrConflict))
		tx.Put(newClientEmailItem(c.Email, c.ID), Schema.IsNew(), designs.Because(ErrEmailTaken))
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return Client{}, fmt.Errorf("%s: client %s: %w", UpdateClientID, c.ID, err)
	}
	c.CreatedAt = old.CreatedAt
	return c, nil
}
