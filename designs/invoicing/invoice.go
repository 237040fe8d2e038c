package invoicing

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// CreateInvoice is AP-03 (main table, TransactWriteItems): the invoice, its
// number item and every line item in one transaction, with a check that the
// client exists. The stored invoice (version 1, total computed from the
// lines) is returned. Outcomes: ErrInvoiceNumberTaken,
// designs.ErrNotFound (no such client), designs.ErrAlreadyExists (invoice ID
// reused), designs.ErrTooManyActions (more than MaxLineItems lines, refused
// before any call); on any of them nothing is written.
func (t Table) CreateInvoice(ctx context.Context, inv Invoice, lines []LineItem) (Invoice, error) {
	inv, lines, err := prepare(inv, lines)
	if err != nil {
		return Invoice{}, fmt.Errorf("%s: invoice %s: %w", CreateInvoiceID, inv.ID, err)
	}
	inv.Version = 1
	tx := designs.Tx{Table: t.Name}
	tx.Check(Schema.Key(ClientPK(inv.ClientID), ClientSK(inv.ClientID)), Schema.IsStored(), designs.Because(designs.ErrNotFound))
	tx.Put(newInvoiceItem(inv, lines), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	tx.Put(newInvoiceNumberItem(inv), Schema.IsNew(), designs.Because(ErrInvoiceNumberTaken))
	for _, l := range lines {
		tx.Put(newLineItemItem(l), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return Invoice{}, fmt.Errorf("%s: invoice %s: %w", CreateInvoiceID, inv.ID, err)
	}
	return inv, nil
}

// UpdateInvoice is AP-04 (main table, TransactWriteItems): it replaces an
// invoice's fields and its whole set of line items. Lines no longer listed
// are deleted, a new number moves the number item (ErrInvoiceNumberTaken
// if taken). The invoice is read first and written only if its version is
// still the one read (designs.ErrConflict otherwise). Unknown invoice:
// designs.ErrNotFound. Returns the stored invoice with its new version.
func (t Table) UpdateInvoice(ctx context.Context, inv Invoice, lines []LineItem) (Invoice, error) {
	inv, lines, err := prepare(inv, lines)
	if err != nil {
		return Invoice{}, fmt.Errorf("%s: invoice %s: %w", UpdateInvoiceID, inv.ID, err)
	}
	old, err := designs.Get[invoiceItem](ctx, t.DB, t.Name, Schema.Key(ClientPK(inv.ClientID), InvoiceSK(inv.ID)), true)
	if err != nil {
		return Invoice{}, fmt.Errorf("%s: invoice %s: %w", UpdateInvoiceID, inv.ID, err)
	}
	inv.Version = old.Version + 1
	sameVersion := expression.Name("Version").Equal(expression.Value(old.Version))

	tx := designs.Tx{Table: t.Name}
	tx.Put(newInvoiceItem(inv, lines), sameVersion, designs.Because(designs.ErrConflict))
	if inv.Number != old.Number {
		ownNumber := expression.Name("InvoiceID").Equal(expression.Value(inv.ID))
		tx.Delete(Schema.Key(InvoiceNumberKey(old.Number), InvoiceNumberKey(old.Number)), ownNumber, designs.Because(designs.ErrConflict))
		tx.Put(newInvoiceNumberItem(inv), Schema.IsNew(), designs.Because(ErrInvoiceNumberTaken))
	}
	kept := map[string]bool{}
	for _, l := range lines {
		kept[l.ID] = true
		tx.Put(newLineItemItem(l), expression.ConditionBuilder{}, nil)
	}
	for _, id := range old.LineItemIDs {
		if !kept[id] {
			k := LineItemKey(inv.ID, id)
			tx.Delete(Schema.Key(k, k), expression.ConditionBuilder{}, nil)
		}
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return Invoice{}, fmt.Errorf("%s: invoice %s: %w", UpdateInvoiceID, inv.ID, err)
	}
	return inv, nil
}

// prepare validates an invoice and its lines, ties the lines to the invoice
// and computes the total.
func prepare(inv Invoice, lines []LineItem) (Invoice, []LineItem, error) {
	if inv.ID == "" || inv.ClientID == "" || inv.Number == "" {
		return inv, nil, fmt.Errorf("%w: invoice ID, client ID and number are required", designs.ErrInvalidInput)
	}
	if len(lines) > MaxLineItems {
		return inv, nil, fmt.Errorf("%w: %d line items, at most %d fit one transaction with the invoice, its number and the client check",
			designs.ErrTooManyActions, len(lines), MaxLineItems)
	}
	seen := map[string]bool{}
	out := make([]LineItem, len(lines))
	inv.TotalCents = 0
	for i, l := range lines {
		if l.ID == "" || seen[l.ID] {
			return inv, nil, fmt.Errorf("%w: line item %d: IDs must be present and distinct", designs.ErrInvalidInput, i+1)
		}
		seen[l.ID] = true
		l.InvoiceID = inv.ID
		out[i] = l
		inv.TotalCents += int64(l.Quantity) * l.UnitPriceCents
	}
	return inv, out, nil
}
