package invoicing

import "github.com/ddbharness/ddbharness/designs"

// The invoicing rules that refuse a call; each is a designs.ErrRefused.
var (
	// ErrEmailTaken refuses a client whose email another client holds
	// (CreateClient, UpdateClient).
	ErrEmailTaken = designs.Refusal("email already taken")
	// ErrInvoiceNumberTaken refuses an invoice whose number another invoice
	// holds (CreateInvoice, UpdateInvoice).
	ErrInvoiceNumberTaken = designs.Refusal("invoice number already taken")
)
