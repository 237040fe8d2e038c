package services_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/services"
)

var _ = Describe("key builders", Label("unit"), func() {
	DescribeTable("build fixed-width keys that sort by date, then ID",
		func(got, want string) { Expect(got).To(Equal(want)) },
		Entry("a client partition", services.ClientPK("c1"), "CLIENT#c1"),
		Entry("a service sort key", services.ServiceSK("2026-03-14", "s1"), "SERVICE#2026-03-14#s1"),
		Entry("a report partition", services.YearPK("2026-03-14"), "2026"),
		Entry("a report sort key", services.YearSK("2026-03-14", "s1"), "2026-03-14#s1"),
		Entry("a program partition", services.ProgramPK("Fuel Aid"), "PROGRAM#Fuel Aid"),
		Entry("an awaiting sort key, whole second, in UTC",
			services.AwaitingSK(time.Date(2026, 3, 14, 9, 5, 0, 0, time.FixedZone("EST", -5*3600)), "s1"),
			"2026-03-14T14:05:00.000000000Z#s1"),
		Entry("a year period", string(services.Year(987)), "0987"),
		Entry("a month period", string(services.Month(2026, time.March)), "2026-03"),
		Entry("a day period", string(services.Day(2026, time.March, 4)), "2026-03-04"),
	)
})
