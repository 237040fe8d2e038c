package invoicing_test

import (
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
)

func ids(invoices []invoicing.Invoice) []string {
	out := []string{}
	for _, inv := range invoices {
		out = append(out, inv.ID)
	}
	return out
}

var _ = Describe("AP-06 view client and recent invoices", Label("AP-06", "main-table"), func() {
	var (
		client  invoicing.Client
		created []string // invoice IDs, oldest first
	)
	BeforeEach(func(ctx SpecContext) {
		client = fake.Client() // a partition no other spec writes to
		Expect(table.CreateClient(ctx, client)).To(Succeed())
		created = nil
	})
	// store is a spec's setup, quiet: AP-03 meets its faults in its own specs.
	store := func(ctx SpecContext, n int) {
		for range n {
			inv, err := quiet.CreateInvoice(ctx, fake.Invoice(client.ID), fake.Lines(1))
			Expect(err).NotTo(HaveOccurred())
			created = append(created, inv.ID)
		}
	}
	newest := func(n int) []string {
		r := append([]string{}, created...)
		slices.Reverse(r)
		return r[:min(n, len(r))]
	}

	DescribeTable("returns the client, then its newest invoices",
		func(ctx SpecContext, stored, limit int) {
			store(ctx, stored)
			got, err := table.ViewClientRecentInvoices(ctx, client.ID, limit, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Client).To(Equal(client))
			Expect(ids(got.Invoices)).To(Equal(newest(limit)))
		},
		Entry("no invoices yet", 0, 5),
		Entry("fewer invoices than the limit", 3, 5),
		Entry("more invoices than the limit", 8, 5),
	)

	It("pages back through every invoice, newest first, without gaps or repeats", func(ctx SpecContext) {
		store(ctx, 7)
		var seen []string
		var cursor designs.Cursor
		for pages := 0; ; pages++ {
			Expect(pages).To(BeNumerically("<", 10), "paging does not end")
			page, err := table.ViewClientRecentInvoices(ctx, client.ID, 3, cursor)
			Expect(err).NotTo(HaveOccurred())
			Expect(len(page.Invoices)).To(BeNumerically("<=", 3))
			if pages == 0 {
				Expect(page.Client).To(Equal(client))
			} else {
				Expect(page.Client).To(BeZero(), "only the first page carries the client")
			}
			seen = append(seen, ids(page.Invoices)...)
			if cursor = page.Next; cursor == "" {
				break
			}
		}
		Expect(seen).To(Equal(newest(7)))
	})

	It("reports ErrNotFound for an unknown client", func(ctx SpecContext) {
		_, err := table.ViewClientRecentInvoices(ctx, "no-such-client", 5, "")
		Expect(err).To(MatchError(designs.ErrNotFound))
	})

	It("refuses a cursor it did not make", func(ctx SpecContext) {
		_, err := table.ViewClientRecentInvoices(ctx, client.ID, 5, designs.Cursor(strings.Repeat("!", 8)))
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-07 view invoice and line items", Label("AP-07", "GSI1"), func() {
	It("returns the invoice and only its own line items, in line order", func(ctx SpecContext) {
		client := fake.Client()
		Expect(quiet.CreateClient(ctx, client)).To(Succeed())
		lines := fake.Lines(5)
		inv, err := quiet.CreateInvoice(ctx, fake.Invoice(client.ID), lines)
		Expect(err).NotTo(HaveOccurred())
		_, err = quiet.CreateInvoice(ctx, fake.Invoice(client.ID), fake.Lines(3)) // a neighbour
		Expect(err).NotTo(HaveOccurred())
		eventuallyViewed(ctx, table, inv, lines)
	})

	It("reports ErrNotFound for an unknown invoice", func(ctx SpecContext) {
		_, err := table.ViewInvoice(ctx, "no-such-invoice")
		Expect(err).To(MatchError(designs.ErrNotFound))
	})
})
