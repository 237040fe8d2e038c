package invoicing

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order, which is the design doc's. Specs carry
// them as labels and scenarios name them, so a typo does not compile.
const (
	// CreateAccountID is the catalog ID of CreateAccount.
	CreateAccountID designs.PatternID = "AP-01"
	// CreateClientID is the catalog ID of CreateClient.
	CreateClientID designs.PatternID = "AP-02"
	// CreateInvoiceID is the catalog ID of CreateInvoice.
	CreateInvoiceID designs.PatternID = "AP-03"
	// UpdateInvoiceID is the catalog ID of UpdateInvoice.
	UpdateInvoiceID designs.PatternID = "AP-04"
	// UpdateClientID is the catalog ID of UpdateClient.
	UpdateClientID designs.PatternID = "AP-05"
	// ViewClientRecentInvoicesID is the catalog ID of ViewClientRecentInvoices.
	ViewClientRecentInvoicesID designs.PatternID = "AP-06"
	// ViewInvoiceID is the catalog ID of ViewInvoice.
	ViewInvoiceID designs.PatternID = "AP-07"
)

// Design is the invoicing catalog.
var Design = designs.Design{
	Name:    "invoicing",
	Summary: "one account bills clients; unique client emails and invoice numbers; invoices with line items",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: CreateAccountID, Name: "create account", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "create the singleton account; a second create is refused"},
		{ID: CreateClientID, Name: "create client", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2,
			Doc: "write the client and its email item together; both must be new"},
		{ID: CreateInvoiceID, Name: "create invoice", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 3 + MaxLineItems,
			Doc: "write the invoice, its number item and its line items in one transaction; the number must be new"},
		{ID: UpdateInvoiceID, Name: "update invoice", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 3 + MaxLineItems,
			Doc: "replace an invoice's fields and line items; a new number moves the number item"},
		{ID: UpdateClientID, Name: "update client details", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 3,
			Doc: "change a client's details; a new email moves the email item"},
		{ID: ViewClientRecentInvoicesID, Name: "view client and recent invoices", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "the client and its newest invoices, read backwards from the client partition"},
		{ID: ViewInvoiceID, Name: "view invoice and line items", Op: designs.Query, Index: GSI1, MaxItems: 1 + MaxLineItems,
			Doc: "an invoice and all its line items, by invoice ID"},
	},
}
