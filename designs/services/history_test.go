package services_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
)

var _ = Describe("AP-03 list a client's history", Label("AP-03", "main-table"), func() {
	var (
		clientID string
		history  []services.Service // as recorded
	)
	BeforeEach(func(ctx SpecContext) {
		clientID = fake.ClientID()
		shared := fake.Date() // two services on one day: the later recorded lists first
		history = record(ctx, clientID, fake.Date(), shared, fake.Date(), shared, fake.Date(), fake.Date(), fake.Date())
		record(ctx, fake.ClientID(), fake.Date(), shared) // a neighbour's services stay out
	})

	DescribeTable("lists every service of the client, latest date first, page by page",
		func(ctx SpecContext, n, pages int) {
			var got []services.Service
			var cursor designs.Cursor
			for range pages {
				page, err := table.ListHistory(ctx, clientID, n, cursor)
				Expect(err).NotTo(HaveOccurred())
				Expect(len(page.Services)).To(BeNumerically("<=", n))
				got = append(got, page.Services...)
				cursor = page.Next
			}
			Expect(cursor).To(BeEmpty(), "the listing ends after %d pages", pages)
			Expect(got).To(Equal(newestFirst(history)))
		},
		Entry("one per page", 1, 7),
		Entry("three per page", 3, 3),
		Entry("as many per page as the history holds", 7, 1),
		Entry("more per page than the history holds", 10, 1),
	)

	It("is empty for a client with no services", func(ctx SpecContext) {
		page, err := table.ListHistory(ctx, fake.ClientID(), 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Services).To(BeEmpty())
		Expect(page.Next).To(BeEmpty())
	})

	It("refuses a cursor from another client's history", func(ctx SpecContext) {
		other := fake.ClientID()
		record(ctx, other, fake.Date(), fake.Date())
		page, err := table.ListHistory(ctx, other, 1, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Next).NotTo(BeEmpty())
		_, err = table.ListHistory(ctx, clientID, 1, page.Next)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})

	DescribeTable("refuses a bad request before reading",
		func(ctx SpecContext, client string, n int, cursor designs.Cursor) {
			if client == "own" {
				client = clientID
			}
			_, err := table.ListHistory(ctx, client, n, cursor)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("no client", "", 5, designs.Cursor("")),
		Entry("a page of zero", "own", 0, designs.Cursor("")),
		Entry("a page above the maximum", "own", services.MaxPageSize+1, designs.Cursor("")),
		Entry("a cursor that is not one", "own", 5, designs.Cursor("not a cursor!")),
	)
})
