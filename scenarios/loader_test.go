package scenarios_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/fixtures"
)

// fill seeds n entities of one design with the given fixture seed and
// returns how many items the seed says it wrote.
type fill func(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(done, total int)) (int, error)

func fillInvoicing(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(int, int)) (int, error) {
	s, err := fixtures.NewInvoicing(seed).Seed(ctx, l, n, progress)
	return s.Items(), err
}

func fillShop(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(int, int)) (int, error) {
	s, err := fixtures.NewShop(seed).Seed(ctx, l, n, progress)
	return s.Items(), err
}

func fillAccountPool(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(int, int)) (int, error) {
	s, err := fixtures.NewAccountPool(seed).Seed(ctx, l, n, progress)
	return s.Items(), err
}

func fillAgencies(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(int, int)) (int, error) {
	s, err := fixtures.NewAgencies(seed).Seed(ctx, l, n, progress)
	return s.Items(), err
}

func fillServices(ctx context.Context, l *fixtures.Loader, seed int64, n int, progress func(int, int)) (int, error) {
	s, err := fixtures.NewServices(seed).Seed(ctx, l, n, progress)
	return s.Items(), err
}

var _ = Describe("the fixtures loader", loaderSpecs, func() {
	DescribeTable("folds the patterns' writes into exactly the items they store one call at a time",
		func(ctx SpecContext, d designs.Design, seedTable fill) {
			const n = 12
			folded, direct := newTable(ctx, d, "folded"), newTable(ctx, d, "direct")
			var reports [][2]int
			// A small flush threshold and memory make several flushes, and
			// make later updates read their items back from the table.
			l := fixtures.NewLoader(db, folded, d.Schema, fixtures.WithFlushAt(10), fixtures.WithKeep(5))
			items, err := seedTable(ctx, l, seed(), n, func(done, total int) { reports = append(reports, [2]int{done, total}) })
			Expect(err).NotTo(HaveOccurred())
			_, err = seedTable(ctx, fixtures.NewLoader(db, direct, d.Schema, fixtures.Direct()), seed(), n, nil)
			Expect(err).NotTo(HaveOccurred())

			got, want := scanAll(ctx, folded), scanAll(ctx, direct)
			Expect(got).To(HaveLen(items), "the items the seed counts")
			Expect(got).To(ConsistOf(want), "the items the patterns store")
			Expect(l.Written()).To(BeNumerically(">=", items), "every item went through a batch")

			Expect(len(reports)).To(BeNumerically(">", 1), "a report per flush")
			Expect(reports[len(reports)-1]).To(Equal([2]int{n, n}))
			for i := 1; i < len(reports); i++ {
				Expect(reports[i][0]).To(BeNumerically(">=", reports[i-1][0]), "progress never goes back")
			}
		},
		Entry("invoicing: the account, clients, invoices and line items", invoicing.Design, fill(fillInvoicing)),
		Entry("shop: catalogue, users and orders that took stock", shop.Design, fill(fillShop)),
		Entry("accountpool: accounts, users, leases and the status sets", accountpool.Design, fill(fillAccountPool)),
		Entry("agencies: agencies and their members", agencies.Design, fill(fillAgencies)),
		Entry("services: services, vouchers issued and fulfilled", services.Design, fill(fillServices)),
	)

	It("gives the same table for the same seed and another for another seed", func(ctx SpecContext) {
		a, b, c := newTable(ctx, agencies.Design, "a"), newTable(ctx, agencies.Design, "b"), newTable(ctx, agencies.Design, "c")
		for _, run := range []struct {
			table string
			seed  int64
		}{{a, seed()}, {b, seed()}, {c, seed() + 1}} {
			_, err := fillAgencies(ctx, fixtures.NewLoader(db, run.table, agencies.Schema), run.seed, 8, nil)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(scanAll(ctx, a)).To(ConsistOf(scanAll(ctx, b)))
		Expect(scanAll(ctx, a)).NotTo(ConsistOf(scanAll(ctx, c)))
	})

	It("refuses a write to another table", func(ctx SpecContext) {
		l := fixtures.NewLoader(db, "ddbh-agencies-mine", agencies.Schema)
		err := agencies.Table{DB: l, Name: "ddbh-agencies-other"}.CreateAgency(ctx, fixtures.NewAgencies(seed()).Agency())
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
