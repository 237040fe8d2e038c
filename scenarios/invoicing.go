package scenarios

import (
	"context"
	"math/rand/v2"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// InvoicingMonthEnd: clients open their invoices while the account bills
// them; a few big clients take most of the traffic (Zipf keys).
var InvoicingMonthEnd = workload.Scenario{
	Name:     "invoicing/month-end",
	About:    "clients read their invoices while the account bills them; big clients take most of the traffic",
	Design:   invoicing.Design,
	Pool:     1500,
	Pacer:    vegeta.ConstantPacer{Freq: 250, Per: time.Second},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: invoicing.ViewClientRecentInvoicesID, Weight: 45, Keys: workload.Zipf{S: 1.1}},
		{Pattern: invoicing.ViewInvoiceID, Weight: 30, Keys: workload.Zipf{S: 1.1}},
		{Pattern: invoicing.CreateInvoiceID, Weight: 12, Keys: workload.Zipf{S: 1.3}},
		{Pattern: invoicing.UpdateInvoiceID, Weight: 6, Keys: workload.Zipf{S: 1.1}},
		{Pattern: invoicing.UpdateClientID, Weight: 4},
		{Pattern: invoicing.CreateClientID, Weight: 3},
	},
	Driver: newInvoicingDriver,
}

// InvoicingBigClient: one client billed and read at a rising rate, the
// design's own risk: its invoices share the client's partition key.
var InvoicingBigClient = workload.Scenario{
	Name:     "invoicing/big-client",
	About:    "one client billed and read at a rising rate: its invoices share one partition key",
	Design:   invoicing.Design,
	Pool:     200,
	Pacer:    vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 50, Per: time.Second}, Slope: 5},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: invoicing.CreateInvoiceID, Weight: 30, Keys: workload.Hot{Key: 0}},
		{Pattern: invoicing.ViewClientRecentInvoicesID, Weight: 50, Keys: workload.Hot{Key: 0}},
		{Pattern: invoicing.ViewInvoiceID, Weight: 20, Keys: workload.Hot{Key: 0}},
	},
	Driver: newInvoicingDriver,
}

// invoicingDriver calls the invoicing patterns on a seeded pool of clients;
// key k is the k-th client. The pool never changes after Seed, so calls
// read it without a lock.
type invoicingDriver struct {
	t    invoicing.Table
	seed int64
	pool fixtures.SeededInvoicing
}

func newInvoicingDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &invoicingDriver{t: invoicing.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes the account and n clients with their invoices.
func (d *invoicingDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewInvoicing(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, invoicing.Schema), n, progress)
	d.pool = pool
	return err
}

// Call runs p on the key-th client. Writes make fresh invoices and clients;
// updates keep numbers and emails, so the pool stays true. Concurrent
// updates of one invoice or client meet designs.ErrConflict, a second
// account designs.ErrAlreadyExists: outcomes, not driver faults.
func (d *invoicingDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	if len(d.pool.Clients) == 0 {
		return ErrNotSeeded
	}
	c := d.pool.Clients[key%len(d.pool.Clients)]
	inv := c.Invoices[r.IntN(len(c.Invoices))]
	var err error
	switch p {
	case invoicing.ViewClientRecentInvoicesID:
		_, err = d.t.ViewClientRecentInvoices(ctx, c.Client.ID, 10, "")
	case invoicing.ViewInvoiceID:
		_, err = d.t.ViewInvoice(ctx, inv.ID)
	case invoicing.CreateInvoiceID:
		f := fixtures.Live[fixtures.Invoicing](r, time.Now())
		_, err = d.t.CreateInvoice(ctx, f.Invoice(c.Client.ID), f.Lines(f.IntRange(1, 5)))
	case invoicing.UpdateInvoiceID:
		f := fixtures.Live[fixtures.Invoicing](r, time.Now())
		inv.DueAt = inv.DueAt.AddDate(0, 0, f.IntRange(1, 30))
		_, err = d.t.UpdateInvoice(ctx, inv, f.Lines(f.IntRange(1, 5)))
	case invoicing.UpdateClientID:
		f := fixtures.Live[fixtures.Invoicing](r, time.Now())
		cl := c.Client
		cl.Name, cl.Address = f.Name(), f.Street()+", "+f.City()
		_, err = d.t.UpdateClient(ctx, cl)
	case invoicing.CreateClientID:
		err = d.t.CreateClient(ctx, fixtures.Live[fixtures.Invoicing](r, time.Now()).Client())
	case invoicing.CreateAccountID:
		err = d.t.CreateAccount(ctx, fixtures.Live[fixtures.Invoicing](r, time.Now()).Account())
	default:
		err = unknown(invoicing.Design.Name, p)
	}
	return err
}
