package invoicing_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func invoiceStored(ctx SpecContext, inv invoicing.Invoice) bool {
	return stored(ctx, invoicing.ClientPK(inv.ClientID), invoicing.InvoiceSK(inv.ID))
}

func numberStored(ctx SpecContext, number string) bool {
	return stored(ctx, invoicing.InvoiceNumberKey(number), invoicing.InvoiceNumberKey(number))
}

func lineStored(ctx SpecContext, invoiceID, lineID string) bool {
	k := invoicing.LineItemKey(invoiceID, lineID)
	return stored(ctx, k, k)
}

// nothingStored checks that no item of a rejected invoice exists.
func nothingStored(ctx SpecContext, inv invoicing.Invoice, lines []invoicing.LineItem) {
	GinkgoHelper()
	Expect(invoiceStored(ctx, inv)).To(BeFalse(), "invoice item")
	for _, l := range lines {
		Expect(lineStored(ctx, inv.ID, l.ID)).To(BeFalse(), "line item %s", l.ID)
	}
}

// eventuallyViewed waits for GSI1 to show the invoice with exactly lines,
// read through t: quiet for a check, table for AP-07 under test.
func eventuallyViewed(ctx SpecContext, t invoicing.Table, inv invoicing.Invoice, lines []invoicing.LineItem) {
	GinkgoHelper()
	want := invoicing.InvoiceDetail{Invoice: inv, Lines: lines}
	for i := range want.Lines {
		want.Lines[i].InvoiceID = inv.ID
	}
	if len(want.Lines) == 0 {
		want.Lines = nil
	}
	Eventually(ctx, t.ViewInvoice).WithArguments(inv.ID).Should(Equal(want))
}

func total(lines []invoicing.LineItem) (cents int64) {
	for _, l := range lines {
		cents += int64(l.Quantity) * l.UnitPriceCents
	}
	return cents
}

var _ = Describe("AP-03 create invoice", Label("AP-03", "main-table"), func() {
	var client invoicing.Client
	BeforeEach(func(ctx SpecContext) {
		client = fake.Client()
		Expect(table.CreateClient(ctx, client)).To(Succeed())
	})

	DescribeTable("writes the invoice, its number and its line items",
		func(ctx SpecContext, n int) {
			inv, lines := fake.Invoice(client.ID), fake.Lines(n)
			absent := func() {
				nothingStored(ctx, inv, lines)
				Expect(numberStored(ctx, inv.Number)).To(BeFalse())
			}
			var got invoicing.Invoice
			err := env.Again(func() (err error) { got, err = table.CreateInvoice(ctx, inv, lines); return err }, absent)
			if env.Faulted(err) {
				return
			}
			Expect(err).NotTo(HaveOccurred())
			inv.Version, inv.TotalCents = 1, total(lines)
			Expect(got).To(Equal(inv))
			Expect(numberStored(ctx, inv.Number)).To(BeTrue())
			eventuallyViewed(ctx, quiet, inv, lines)
		},
		Entry("with no line items", 0),
		Entry("with three line items", 3),
		Entry("with as many line items as one transaction holds", invoicing.MaxLineItems),
	)

	It("refuses more line items than one transaction holds, before writing", func(ctx SpecContext) {
		inv, lines := fake.Invoice(client.ID), fake.Lines(invoicing.MaxLineItems+1)
		_, err := table.CreateInvoice(ctx, inv, lines)
		Expect(err).To(MatchError(designs.ErrTooManyActions))
		nothingStored(ctx, inv, lines)
		Expect(numberStored(ctx, inv.Number)).To(BeFalse())
	})

	It("refuses a taken invoice number and writes none of the loser's items", func(ctx SpecContext) {
		first, err := quiet.CreateInvoice(ctx, fake.Invoice(client.ID), fake.Lines(2))
		Expect(err).NotTo(HaveOccurred())
		second, lines := fake.Invoice(client.ID), fake.Lines(3)
		second.Number = first.Number
		unchanged := func() {
			nothingStored(ctx, second, lines)
			Expect(invoiceStored(ctx, first)).To(BeTrue())
			Expect(numberStored(ctx, first.Number)).To(BeTrue())
		}
		err = env.Again(func() error { _, err := table.CreateInvoice(ctx, second, lines); return err }, unchanged)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(invoicing.ErrInvoiceNumberTaken))
		}
		unchanged()
	})

	It("refuses an invoice for an unknown client and writes nothing", func(ctx SpecContext) {
		inv, lines := fake.Invoice("no-such-client"), fake.Lines(2)
		absent := func() {
			nothingStored(ctx, inv, lines)
			Expect(numberStored(ctx, inv.Number)).To(BeFalse())
		}
		err := env.Again(func() error { _, err := table.CreateInvoice(ctx, inv, lines); return err }, absent)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrNotFound))
		}
		absent()
	})

	It("lets exactly one of 20 concurrent invoices take one number", func(ctx SpecContext) {
		number := fake.InvoiceNumber()
		invoices := make([]invoicing.Invoice, 20)
		lines := fake.Lines(2)
		for i := range invoices {
			invoices[i] = fake.Invoice(client.ID)
			invoices[i].Number = number
		}
		winner := env.OnlyWinner(ddbtest.Race(len(invoices), func(i int) error {
			_, err := table.CreateInvoice(ctx, invoices[i], lines)
			return err
		}), invoicing.ErrInvoiceNumberTaken)
		for i, inv := range invoices {
			Expect(invoiceStored(ctx, inv)).To(Equal(i == winner), "invoice %d", i)
			for _, l := range lines {
				Expect(lineStored(ctx, inv.ID, l.ID)).To(Equal(i == winner), "invoice %d line %s", i, l.ID)
			}
		}
	})
})

var _ = Describe("AP-04 update invoice", Label("AP-04", "main-table"), func() {
	var (
		inv   invoicing.Invoice
		lines []invoicing.LineItem
	)
	BeforeEach(func(ctx SpecContext) {
		client := fake.Client()
		Expect(table.CreateClient(ctx, client)).To(Succeed())
		var err error
		lines = fake.Lines(4)
		inv, err = table.CreateInvoice(ctx, fake.Invoice(client.ID), lines)
		Expect(err).NotTo(HaveOccurred())
	})

	It("replaces the line items: changed, added and removed lines", func(ctx SpecContext) {
		was := inv
		fresh := fake.Lines(6)
		next := []invoicing.LineItem{lines[0], fresh[4], fresh[5]} // keep 001, change 005/006 into new lines
		next[0].Quantity++
		next[1].ID, next[2].ID = invoicing.LineItemID(5), invoicing.LineItemID(6)
		inv.DueAt = inv.DueAt.AddDate(0, 0, 7)
		asItWas := func() { eventuallyViewed(ctx, quiet, was, lines) } // every line of it
		var got invoicing.Invoice
		err := env.Again(func() (err error) { got, err = table.UpdateInvoice(ctx, inv, next); return err }, asItWas)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		inv.Version, inv.TotalCents = 2, total(next)
		Expect(got).To(Equal(inv))
		eventuallyViewed(ctx, quiet, inv, next)
		for _, removed := range lines[1:] {
			Expect(lineStored(ctx, inv.ID, removed.ID)).To(BeFalse(), "removed line %s", removed.ID)
		}
	})

	It("moves the number item when the number changes, freeing the old number", func(ctx SpecContext) {
		old := inv.Number
		inv.Number = fake.InvoiceNumber()
		held := func() { // the old number held, the new one free
			Expect(numberStored(ctx, old)).To(BeTrue())
			Expect(numberStored(ctx, inv.Number)).To(BeFalse())
		}
		err := env.Again(func() error { _, err := table.UpdateInvoice(ctx, inv, lines); return err }, held)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(numberStored(ctx, inv.Number)).To(BeTrue())
		Expect(numberStored(ctx, old)).To(BeFalse())

		reuse := fake.Invoice(inv.ClientID)
		reuse.Number = old
		_, err = quiet.CreateInvoice(ctx, reuse, nil)
		Expect(err).NotTo(HaveOccurred(), "the old number is free again")
	})

	It("refuses a number another invoice has and changes nothing", func(ctx SpecContext) {
		other, err := quiet.CreateInvoice(ctx, fake.Invoice(inv.ClientID), nil)
		Expect(err).NotTo(HaveOccurred())
		changed := inv
		changed.Number = other.Number
		asItWas := func() {
			eventuallyViewed(ctx, quiet, inv, lines)
			Expect(numberStored(ctx, inv.Number)).To(BeTrue())
		}
		err = env.Again(func() error { _, err := table.UpdateInvoice(ctx, changed, fake.Lines(1)); return err }, asItWas)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(invoicing.ErrInvoiceNumberTaken))
		}
		asItWas()
	})

	It("reports ErrNotFound for an unknown invoice and writes nothing", func(ctx SpecContext) {
		ghost := fake.Invoice(inv.ClientID)
		_, err := table.UpdateInvoice(ctx, ghost, lines)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrNotFound))
		}
		nothingStored(ctx, ghost, lines)
		Expect(numberStored(ctx, ghost.Number)).To(BeFalse())
	})

	It("keeps one number item per invoice under 20 concurrent renumberings", func(ctx SpecContext) {
		numbers := make([]string, 20)
		for i := range numbers {
			numbers[i] = fake.InvoiceNumber()
		}
		errs := ddbtest.Race(len(numbers), func(i int) error {
			changed := inv
			changed.Number = numbers[i]
			_, err := table.UpdateInvoice(ctx, changed, lines)
			return err
		})
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !env.Faulted(err): // a fault wrote nothing: the checks below hold it to that
				Expect(err).To(MatchError(designs.ErrConflict), "a loser sees the conflict")
			}
		}
		Expect(won).To(BeNumerically(">=", 1))
		var final invoicing.InvoiceDetail
		Eventually(ctx, func(ctx SpecContext) int {
			var err error
			final, err = quiet.ViewInvoice(ctx, inv.ID)
			Expect(err).NotTo(HaveOccurred())
			return final.Invoice.Version
		}).Should(Equal(1 + won))
		held := 0
		for _, n := range append(numbers, inv.Number) {
			if numberStored(ctx, n) {
				held++
				Expect(n).To(Equal(final.Invoice.Number), "the only number item is the invoice's number")
			}
		}
		Expect(held).To(Equal(1))
	})
})
