package scenarios_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/fixtures"
)

// Each seeded pool is read back through the design's own patterns: every
// entity the seed reports is there, with the children it says it has, and
// the table holds exactly the items it counts.
var _ = Describe("seeded pools read back through the patterns", loaderSpecs, func() {
	const n = 15

	It("invoicing: every client with its invoices, every invoice with its lines", func(ctx SpecContext) {
		name := newTable(ctx, invoicing.Design, "pool")
		s, err := fixtures.NewInvoicing(seed()).Seed(ctx, fixtures.NewLoader(db, name, invoicing.Schema), n, nil)
		Expect(err).NotTo(HaveOccurred())
		t := invoicing.Table{DB: db, Name: name}
		for _, c := range s.Clients {
			page, err := t.ViewClientRecentInvoices(ctx, c.Client.ID, invoicing.MaxLineItems, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(page.Client.ID).To(Equal(c.Client.ID))
			Expect(page.Invoices).To(HaveLen(len(c.Invoices)))
			for i, inv := range c.Invoices {
				detail, err := t.ViewInvoice(ctx, inv.ID)
				Expect(err).NotTo(HaveOccurred())
				Expect(detail.Invoice.TotalCents).To(Equal(inv.TotalCents))
				Expect(detail.Lines).To(HaveLen(c.Lines[i]))
			}
		}
		Expect(scanAll(ctx, name)).To(HaveLen(s.Items()))
	})

	It("shop: the catalogue, users with their orders, stock after the orders", func(ctx SpecContext) {
		name := newTable(ctx, shop.Design, "pool")
		s, err := fixtures.NewShop(seed()).Seed(ctx, fixtures.NewLoader(db, name, shop.Schema), n, nil)
		Expect(err).NotTo(HaveOccurred())
		t := shop.Table{DB: db, Name: name}
		users, err := t.ListUsers(ctx, shop.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(users.Items).To(HaveLen(len(s.Users)))
		products, err := t.ListProducts(ctx, shop.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(products.Items).To(HaveLen(len(s.Products)))
		cats, err := t.ListCategories(ctx, shop.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(cats.Items).To(HaveLen(len(s.Categories)))
		brands, err := t.ListBrands(ctx, shop.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(brands.Items).To(HaveLen(len(s.Brands)))
		for _, p := range s.Products {
			got, err := t.GetProduct(ctx, p.ID)
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Stock).To(Equal(p.Stock), "stock of %s after the seeded orders", p.ID)
		}
		for i, u := range s.Users {
			orders, err := t.ListUserOrders(ctx, u.ID, shop.MaxPageSize, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(statuses(orders.Items)).To(Equal(statuses(s.Orders[i])))
		}
		Expect(scanAll(ctx, name)).To(HaveLen(s.Items()))
	})

	It("accountpool: the status sets agree with every account, user and lease", func(ctx SpecContext) {
		name := newTable(ctx, accountpool.Design, "pool")
		s, err := fixtures.NewAccountPool(seed()).Seed(ctx, fixtures.NewLoader(db, name, accountpool.Schema), n, nil)
		Expect(err).NotTo(HaveOccurred())
		t := accountpool.Table{DB: db, Name: name}
		in := func(state accountpool.AccountState) []string {
			var ids []string
			for _, a := range s.Accounts {
				if a.State == state || state == "" {
					ids = append(ids, a.ID)
				}
			}
			return ids
		}
		for _, c := range []struct {
			list func() ([]string, error)
			want []string
		}{
			{func() ([]string, error) { return t.ListAllAccounts(ctx) }, in("")},
			{func() ([]string, error) { return t.ListAvailableAccounts(ctx) }, in(accountpool.StateAvailable)},
			{func() ([]string, error) { return t.ListInitialAccounts(ctx) }, in(accountpool.StateInitial)},
			{func() ([]string, error) { return t.ListActiveLeases(ctx) }, leaseIDs(s.Leases)},
		} {
			got, err := c.list()
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(ConsistOf(c.want))
		}
		Expect(s.Leases).NotTo(BeEmpty())
		for _, u := range s.Users {
			got, err := t.GetUser(ctx, u.Email)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(u))
		}
		Expect(scanAll(ctx, name)).To(HaveLen(s.Items()))
	})

	It("agencies: every agency listed, with its members, and every user's memberships", func(ctx SpecContext) {
		name := newTable(ctx, agencies.Design, "pool")
		s, err := fixtures.NewAgencies(seed()).Seed(ctx, fixtures.NewLoader(db, name, agencies.Schema), n, nil)
		Expect(err).NotTo(HaveOccurred())
		t := agencies.Table{DB: db, Name: name}
		listed, err := t.ListAgencies(ctx, agencies.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(listed.Agencies).To(HaveLen(n))
		for i, a := range s.Agencies {
			members, err := t.ListAgencyMembers(ctx, a.ID, agencies.MaxPageSize, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(members.Members).To(HaveLen(len(s.Members[i])))
		}
		for _, u := range s.Users {
			got, err := t.ListMemberships(ctx, u, agencies.MaxPageSize, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Members).To(HaveLen(s.Memberships(u)), "memberships of %s", u)
		}
		Expect(scanAll(ctx, name)).To(HaveLen(s.Items()))
	})

	It("services: every history, the year's report and the vouchers awaiting", func(ctx SpecContext) {
		name := newTable(ctx, services.Design, "pool")
		s, err := fixtures.NewServices(seed()).Seed(ctx, fixtures.NewLoader(db, name, services.Schema), n, nil)
		Expect(err).NotTo(HaveOccurred())
		t := services.Table{DB: db, Name: name}
		for i, c := range s.Clients {
			history, err := t.ListHistory(ctx, c, services.MaxPageSize, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(history.Services).To(HaveLen(len(s.Services[i])))
		}
		report, err := t.ReportPeriod(ctx, services.Year(s.Year), services.MaxPageSize, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(report.Services).To(HaveLen(s.Items()))
		awaiting := 0
		for _, p := range s.Programs {
			page, err := t.ListAwaitingVouchers(ctx, p, services.MaxPageSize, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(page.Services).To(HaveLen(s.Awaiting(p)), "awaiting in %s", p)
			awaiting += len(page.Services)
		}
		Expect(awaiting).To(BeNumerically(">", 0))
		Expect(scanAll(ctx, name)).To(HaveLen(s.Items()))
	})
})

func leaseIDs(ls []accountpool.Lease) []string {
	ids := make([]string, len(ls))
	for i, l := range ls {
		ids[i] = l.ID
	}
	return ids
}

// statuses lists orders as ID:status, sorted, to compare a listing with a
// pool without caring for times' encoding.
func statuses(orders []shop.Order) []string {
	out := make([]string, len(orders))
	for i, o := range orders {
		out[i] = o.ID + ":" + string(o.Status)
	}
	return slices.Sorted(slices.Values(out))
}
