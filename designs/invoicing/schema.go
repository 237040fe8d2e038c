// Package invoicing restates design seed 000: one account bills its clients;
// clients have unique emails, invoices have unique numbers and carry line
// items. Clients and their invoices share a partition, newest invoice first
// when read backwards; an invoice and its line items meet on GSI1.
package invoicing

import (
	"fmt"
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

// Schema is the single table: PK/SK plus GSI1, which groups an invoice with
// its line items.
var Schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{{Name: GSI1, PK: "GSI1PK", SK: "GSI1SK"}}}

// GSI1 is the index that serves "view invoice and line items".
const GSI1 = "GSI1"

// MaxLineItems is the most line items one invoice may carry: a create writes
// the invoice, its number, a check on the client and one action per line
// item, and a transaction holds at most designs.MaxTransactActions.
const MaxLineItems = designs.MaxTransactActions - 3

// Table is a handle on one invoicing table.
type Table struct {
	DB   designs.DB
	Name string
}

// Key builders. '#' sorts before 'C': read backwards, a client partition
// gives the client item first, then its invoices newest first (invoice IDs
// are KSUIDs). On GSI1 "INVOICE#" sorts before "LINEITEM#", so an invoice
// precedes its line items.
func AccountKey() string                  { return "ACCOUNT" }
func ClientPK(id string) string           { return "CLIENT#" + id }
func ClientSK(id string) string           { return "CLIENT#" + id }
func ClientEmailKey(email string) string  { return "CLIENTEMAIL#" + email }
func InvoiceSK(id string) string          { return "#INVOICE#" + id }
func InvoiceNumberKey(n string) string    { return "INVOICENUMBER#" + n }
func InvoiceGSI1PK(invoice string) string { return "INVOICE#" + invoice }
func InvoiceGSI1SK(invoice string) string { return "INVOICE#" + invoice }
func LineItemKey(invoice, item string) string {
	return "INVOICE#" + invoice + "#LINEITEM#" + item
}
func LineItemGSI1SK(item string) string { return "LINEITEM#" + item }

// LineItemID is the fixed-width ID of the n-th line item (1-based), so that
// line items sort in invoice order.
func LineItemID(n int) string { return fmt.Sprintf("%03d", n) }

// Item types, stored in the Type attribute.
const (
	typeAccount       = "Account"
	typeClient        = "Client"
	typeClientEmail   = "ClientEmail"
	typeInvoice       = "Invoice"
	typeInvoiceNumber = "InvoiceNumber"
	typeLineItem      = "LineItem"
)

// Account is the singleton that owns the clients.
type Account struct {
	Name      string    `dynamodbav:"Name"`
	Email     string    `dynamodbav:"Email"`
	CreatedAt time.Time `dynamodbav:"CreatedAt"`
}

// Client is a customer of the account. Email is unique among clients.
type Client struct {
	ID        string    `dynamodbav:"ClientID"`
	Name      string    `dynamodbav:"Name"`
	Email     string    `dynamodbav:"Email"`
	Address   string    `dynamodbav:"Address"`
	CreatedAt time.Time `dynamodbav:"CreatedAt"`
}

// Invoice bills a client. ID is a KSUID (its time orders invoices); Number
// is the human invoice number, unique across the account. Version counts
// updates and guards them against lost writes.
type Invoice struct {
	ID         string    `dynamodbav:"InvoiceID"`
	ClientID   string    `dynamodbav:"ClientID"`
	Number     string    `dynamodbav:"Number"`
	IssuedAt   time.Time `dynamodbav:"IssuedAt"`
	DueAt      time.Time `dynamodbav:"DueAt"`
	TotalCents int64     `dynamodbav:"TotalCents"`
	Version    int       `dynamodbav:"Version"`
}

// LineItem is one line of an invoice. Money is in integer cents.
type LineItem struct {
	ID             string `dynamodbav:"LineItemID"`
	InvoiceID      string `dynamodbav:"InvoiceID"`
	Description    string `dynamodbav:"Description"`
	Quantity       int    `dynamodbav:"Quantity"`
	UnitPriceCents int64  `dynamodbav:"UnitPriceCents"`
}

// Storage items: the domain struct plus keys and type.
type (
	keys struct {
		PK   string `dynamodbav:"PK"`
		SK   string `dynamodbav:"SK"`
		Type string `dynamodbav:"Type"`
	}
	gsi1 struct {
		GSI1PK string `dynamodbav:"GSI1PK"`
		GSI1SK string `dynamodbav:"GSI1SK"`
	}
	accountItem struct {
		keys
		Account
	}
	clientItem struct {
		keys
		Client
	}
	clientEmailItem struct {
		keys
		ClientID string `dynamodbav:"ClientID"`
	}
	invoiceItem struct {
		keys
		gsi1
		Invoice
		LineItemIDs []string `dynamodbav:"LineItemIDs,omitempty"`
	}
	invoiceNumberItem struct {
		keys
		InvoiceID string `dynamodbav:"InvoiceID"`
		ClientID  string `dynamodbav:"ClientID"`
	}
	lineItemItem struct {
		keys
		gsi1
		LineItem
	}
)

func newClientItem(c Client) clientItem {
	return clientItem{keys{ClientPK(c.ID), ClientSK(c.ID), typeClient}, c}
}

func newClientEmailItem(email, clientID string) clientEmailItem {
	k := ClientEmailKey(email)
	return clientEmailItem{keys{k, k, typeClientEmail}, clientID}
}

func newInvoiceItem(inv Invoice, lines []LineItem) invoiceItem {
	ids := make([]string, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	return invoiceItem{
		keys{ClientPK(inv.ClientID), InvoiceSK(inv.ID), typeInvoice},
		gsi1{InvoiceGSI1PK(inv.ID), InvoiceGSI1SK(inv.ID)},
		inv, ids,
	}
}

func newInvoiceNumberItem(inv Invoice) invoiceNumberItem {
	k := InvoiceNumberKey(inv.Number)
	return invoiceNumberItem{keys{k, k, typeInvoiceNumber}, inv.ID, inv.ClientID}
}

func newLineItemItem(l LineItem) lineItemItem {
	k := LineItemKey(l.InvoiceID, l.ID)
	return lineItemItem{keys{k, k, typeLineItem}, gsi1{InvoiceGSI1PK(l.InvoiceID), LineItemGSI1SK(l.ID)}, l}
}
