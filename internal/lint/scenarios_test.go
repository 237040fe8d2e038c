package lint_test

import (
	"bytes"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/internal/testdesigns/ticketing"
	"github.com/ddbharness/ddbharness/workload"
)

// finding is the one finding of fs with check c on pattern p.
func finding(fs []lint.Finding, c string, p designs.PatternID) lint.Finding {
	i := slices.IndexFunc(fs, func(f lint.Finding) bool { return f.Check == c && f.Pattern == p })
	Expect(i).NotTo(BeNumerically("<", 0), "no %s finding on %s", c, p)
	return fs[i]
}

// The event the on-sale scenario seeds, as a hot item's key.
var onSaleEvent = ticketing.EventItem(ticketing.OnSaleEvent)

var _ = Describe("probing every scenario of a design", func() {
	both := lint.Scenarios(ticketing.Browse, ticketing.OnSale)

	It("names the on-sale hold as a hot item, with the item's ceiling and its partition key value's apart", func(ctx SpecContext) {
		fs, err := lint.Run(ctx, ticketing.Design, lint.Pool(200), both)
		Expect(err).NotTo(HaveOccurred())
		Expect(where(fs)).To(ConsistOf(
			hot(ticketing.HoldSeats, onSaleEvent), hot(ticketing.AddSeats, onSaleEvent),
			"not-probed table "+string(ticketing.ReleaseHolds), "not-probed table "+string(ticketing.ReleaseHolds)))

		f := finding(fs, lint.CheckHotItem, ticketing.HoldSeats)
		Expect(f.Scenario).To(Equal(ticketing.OnSale.Name))
		Expect(f.Transactional).To(BeTrue())
		// The event item is under 1 KB: one unit, two in a transaction, so
		// 1,000 ÷ 2 calls a second. Its partition also takes the 2 to 4
		// seats, two units each.
		Expect(f.Measured).To(Equal(map[string]int{"made": 100, "calls": 100, "rewrites": 100, "keys": 1, "key_space": 1,
			"wcu_per_call": 2, "calls_per_second_at_limit": 500, "key_wcu_per_call": 10, "key_calls_per_second_at_limit": 100}))
		Expect(f.Names).To(HaveKeyWithValue("partition_key", []string{"EVENT#e00000"}))
		Expect(f.Found).To(Equal("TK-02 writes EVENT#e00000 / EVENT on 100 of 100 calls in ticketing/on-sale, all for one key of the event pool's 1 key: " +
			"2 WCU a call on the item (doubled: a transaction writes each item twice), so the item takes at most 500 calls/s of TK-02; " +
			"its partition key value EVENT#e00000 takes 10 WCU a call, at most 100 calls/s while its items share one partition"))
		Expect(f.Why).To(ContainSubstring("the scenario sends every call to one entity"))
		Expect(f.Limit.Source).To(HaveSuffix("burst-adaptive-capacity.html#isolate-frequent-access-items"))

		add := finding(fs, lint.CheckHotItem, ticketing.AddSeats)
		Expect(add.Found).To(ContainSubstring("all for one key of the event pool's 1 key"))
		Expect(add.Found).NotTo(ContainSubstring("each for another"))
	})

	It("probes every write step of every scenario, or says why not", func(ctx SpecContext) {
		fs, err := lint.Run(ctx, ticketing.Design, lint.Pool(200), both)
		Expect(err).NotTo(HaveOccurred())
		for _, sc := range []workload.Scenario{ticketing.Browse, ticketing.OnSale} {
			var stepped []designs.PatternID
			for _, st := range sc.Mix {
				if p, _ := ticketing.Design.Pattern(st.Pattern); p.Op != designs.GetItem {
					stepped = append(stepped, st.Pattern)
				}
			}
			var probed []designs.PatternID
			for _, p := range lint.Probes(ctx, ticketing.Design, sc) {
				probed = append(probed, p.Pattern)
				if p.Failure == "" {
					Expect(p.OK).To(BeNumerically(">=", lint.MinEntries), "%s %s", sc.Name, p.Pattern)
					continue
				}
				Expect(fs).To(ContainElement(And(
					HaveField("Check", lint.CheckNotProbed), HaveField("Pattern", p.Pattern), HaveField("Scenario", sc.Name),
					HaveField("Found", ContainSubstring(p.Failure)))), "%s %s was not probed and not listed", sc.Name, p.Pattern)
			}
			Expect(probed).To(ConsistOf(stepped), sc.Name)
		}
	})

	It("lists a write pattern whose calls mostly fail as not probed, with how many succeeded and the error they gave", func(ctx SpecContext) {
		// 40 seats: the holds sell them out after a dozen calls or so.
		small := ticketing.Scenario("small-venue", 1, 40, false)
		fs, err := lint.Run(ctx, ticketing.Design, lint.Pool(200), lint.Scenarios(small))
		Expect(err).NotTo(HaveOccurred())
		f := finding(fs, lint.CheckNotProbed, ticketing.HoldSeats)
		Expect(f.Scenario).To(Equal(small.Name))
		Expect(f.Measured["calls"]).To(Equal(100))
		Expect(f.Measured["succeeded"]).To(And(BeNumerically(">=", 10), BeNumerically("<", lint.MinEntries)))
		Expect(f.Found).To(MatchRegexp(`^not probed: TK-02 in ticketing/small-venue, 1\d of 100 calls succeeded: TK-02: event e00000: not enough seats left`))

		var out bytes.Buffer
		Expect(lint.WriteText(&out, ticketing.Design.Name, fs)).To(Succeed())
		Expect(out.String()).To(ContainSubstring("\n    " + f.Found + "\n"))
	})

	It("probes only the scenarios it is given", func(ctx SpecContext) {
		fs, err := lint.Run(ctx, ticketing.Design, lint.Pool(200), lint.Scenarios(ticketing.Browse))
		Expect(err).NotTo(HaveOccurred())
		Expect(where(fs)).To(ConsistOf("not-probed table " + string(ticketing.ReleaseHolds)))
		Expect(fs[0].Scenario).To(Equal(ticketing.Browse.Name))
	})

	It("refuses a scenario of another design", func(ctx SpecContext) {
		other := ticketing.Browse
		other.Design = designs.Design{Name: "shop"}
		_, err := lint.Run(ctx, ticketing.Design, lint.Pool(200), lint.Scenarios(other))
		Expect(err).To(MatchError(And(ContainSubstring("scenario ticketing/browse is of design shop"), ContainSubstring("invalid input"))))
	})
})
