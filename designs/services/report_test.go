package services_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
)

// reportYear records services on the edges and the middle of a year no
// other spec uses, so reports over it are exact: each of its services has a
// client of its own, and two share 14 March.
func reportYear(ctx SpecContext) (int, []services.Service) {
	y := fake.ReportYear()
	return y, record(ctx, "", date(y, 1, 1), date(y, 3, 2), date(y, 3, 14), date(y, 3, 14),
		date(y, 3, 31), date(y, 4, 1), date(y, 12, 31))
}

var _ = Describe("AP-07 report a year, month or day", Label("AP-07", services.ByYear), func() {
	var (
		year     int
		recorded []services.Service
	)
	BeforeEach(func(ctx SpecContext) { year, recorded = reportYear(ctx) })

	DescribeTable("lists exactly the period's services in date order",
		func(ctx SpecContext, period func(y int) services.Period, n int) {
			p := period(year)
			want := dateOrder(where(recorded, func(s services.Service) bool { return strings.HasPrefix(s.Date, string(p)) }))
			Eventually(ctx, func(g Gomega) []services.Service {
				return readAll(g, n, func(c designs.Cursor) (services.Page, error) { return table.ReportPeriod(ctx, p, n, c) })
			}).Should(Equal(want))
		},
		Entry("a whole year, two per page", services.Year, 2),
		Entry("a whole year on one page", services.Year, 10),
		Entry("a month, from its first day to its last", func(y int) services.Period { return services.Month(y, time.March) }, 3),
		Entry("a month holding only its first day", func(y int) services.Period { return services.Month(y, time.January) }, 3),
		Entry("a day with two services, recording order", func(y int) services.Period { return services.Day(y, time.March, 14) }, 1),
		Entry("the last day of the year", func(y int) services.Period { return services.Day(y, time.December, 31) }, 5),
		Entry("a month without services", func(y int) services.Period { return services.Month(y, time.February) }, 5),
	)

	It("refuses a cursor from another year", func(ctx SpecContext) {
		page, err := table.ReportPeriod(ctx, services.Year(year), 1, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Next).NotTo(BeEmpty())
		_, err = table.ReportPeriod(ctx, services.Year(year+1), 1, page.Next)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})

	DescribeTable("refuses a period that is not a year, month or day",
		func(ctx SpecContext, p string) {
			_, err := table.ReportPeriod(ctx, services.Period(p), 5, "")
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("a two-digit year", "26"),
		Entry("a month without its zero", "2026-3"),
		Entry("a thirteenth month", "2026-13"),
		Entry("a day the calendar lacks", "2026-02-29"),
		Entry("nothing", ""),
	)
})

var _ = Describe("AP-08 report a date range", Label("AP-08", services.ByYear), func() {
	var (
		year     int
		recorded []services.Service
	)
	BeforeEach(func(ctx SpecContext) { year, recorded = reportYear(ctx) })

	DescribeTable("lists exactly the services from the first date to the last, both included, in date order",
		func(ctx SpecContext, fromM, fromD, toM, toD, n int) {
			from, to := date(year, fromM, fromD), date(year, toM, toD)
			want := dateOrder(where(recorded, func(s services.Service) bool { return from <= s.Date && s.Date <= to }))
			Eventually(ctx, func(g Gomega) []services.Service {
				return readAll(g, n, func(c designs.Cursor) (services.Page, error) { return table.ReportRange(ctx, from, to, n, c) })
			}).Should(Equal(want))
		},
		Entry("the whole year, edges included", 1, 1, 12, 31, 3),
		Entry("from one recorded day to another", 3, 2, 3, 14, 2),
		Entry("across a month's end", 3, 14, 4, 1, 10),
		Entry("a single day", 3, 14, 3, 14, 10),
		Entry("days without services", 3, 15, 3, 30, 10),
	)

	DescribeTable("refuses a range it cannot read in one year partition",
		func(ctx SpecContext, from, to string) {
			_, err := table.ReportRange(ctx, from, to, 5, "")
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("a range across two years", "2025-12-01", "2026-01-31"),
		Entry("a range that ends before it starts", "2026-03-14", "2026-03-13"),
		Entry("a malformed date", "2026-03-14", "2026-3-20"),
	)
})
