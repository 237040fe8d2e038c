package agencies_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/agencies"
)

var _ = Describe("key builders", Label("unit"), func() {
	DescribeTable("Stamp is fixed-width UTC, so string order is time order",
		func(t time.Time, want string) {
			Expect(agencies.Stamp(t)).To(Equal(want))
			Expect(agencies.Stamp(t)).To(HaveLen(len(agencies.StampLayout)))
		},
		Entry("a whole second", time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC), "2026-01-01T00:00:01.000000000Z"),
		Entry("half a second later", time.Date(2026, 1, 1, 0, 0, 1, 5e8, time.UTC), "2026-01-01T00:00:01.500000000Z"),
		Entry("another zone, same instant", time.Date(2026, 1, 1, 2, 0, 1, 0, time.FixedZone("EET", 2*3600)), "2026-01-01T00:00:01.000000000Z"),
		Entry("year 1", time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), "0001-01-01T00:00:00.000000001Z"),
	)

	It("orders stamps as their times", func() {
		base := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)
		times := []time.Time{base, base.Add(time.Nanosecond), base.Add(500 * time.Millisecond), base.Add(time.Second), base.Add(24 * time.Hour)}
		for i := 1; i < len(times); i++ {
			Expect(agencies.Stamp(times[i-1]) < agencies.Stamp(times[i])).To(BeTrue(), "%s before %s", times[i-1], times[i])
		}
	})

	It("puts the agency item before its members in the partition", func() {
		Expect(agencies.AgencyPK("a1")).To(Equal(agencies.AgencySK("a1")))
		Expect(agencies.AgencySK("zzz") < agencies.MemberSK("0")).To(BeTrue())
		Expect(agencies.MemberSK("auth0|x")).To(HavePrefix(agencies.MemberPrefix))
	})
})
