package bench_test

import (
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/testdesigns/ticketing"
)

var _ = Describe("an on-sale moment, every hold writing the event's counter item", Label("engine"), func() {
	It("names the event item's transactions, the hold pattern and what to change first, far below the partition's ceiling", func(ctx SpecContext) {
		// 100 calls a second, half of them holds of the one event: each
		// hold is a transaction that writes the event's seatsLeft. The
		// window lasts until every pattern has had 10 calls end (about 2 s
		// on a quiet machine), a minute at most. The holds serialise on the
		// event's item, each for a transaction's time in flight on real
		// DynamoDB (rules.DefaultTransactionHold), not on DynamoDB
		// Local: that ceiling is 1 ÷ (holds per request × hold), the same
		// however fast or loaded this machine is, and the partition's
		// ceiling at DynamoDB's own limits lies above it by the mix alone.
		const calls = 10
		sc := ticketing.OnSale
		sc.Pacer, sc.Duration = vegeta.ConstantPacer{Freq: 100, Per: time.Second}, time.Minute
		out, err := bench.RunLimited(ctx, raw, sc, bench.Limits{}, engine.Workers(64), engine.Warmup(300*time.Millisecond),
			engine.MinCalls(calls), engine.Drain(500*time.Millisecond), engine.Progress(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Failure).To(BeNil())
		for _, p := range out.Patterns {
			Expect(p.Metrics.Requests).To(BeNumerically(">=", calls), "%s: the run reached its %s bound first", p.ID, sc.Duration)
		}

		limits := out.Capacity.LimitsInOrder
		for _, l := range limits {
			GinkgoWriter.Printf("%s %s %s %s: %.1f requests/s\n", l.Kind, l.Key, l.Item, l.Pattern, l.Rate)
		}
		first := out.Capacity.FirstLimit
		Expect(first).NotTo(BeNil())
		event := ticketing.EventItem(ticketing.OnSaleEvent)
		Expect(first.Kind).To(Equal(capacity.LimitConflict))
		Expect(first.Item).To(Equal(event))
		Expect(first.Pattern).To(Equal(ticketing.HoldSeats))
		Expect(first.Source.Basis).To(Equal("inferred"))
		Expect(first.HoldSeconds).To(Equal(rules.DefaultTransactionHold.Seconds()), "the hold on DynamoDB, not the test bed's")
		// The test bed's own hold is shown beside it, unless the workers
		// fell behind, when the calls' latencies count their wait.
		Expect(first.TestBedHoldSeconds > 0).To(Equal(out.Saturated == nil), "the test bed's hold shown: %g s", first.TestBedHoldSeconds)
		// At the ceiling the holds fill most of the item's time, the rest
		// going to the other transactions on it (adding and releasing seats).
		Expect(first.PatternRate*first.HoldSeconds).To(And(BeNumerically(">", 0.5), BeNumerically("<=", 1+1e-9)), "the hold pattern's share of the item's time")

		By("far below the event's partition, which comes later in the order")
		i := slices.IndexFunc(limits, func(l capacity.Limit) bool { return l.Kind == capacity.LimitPartition })
		Expect(i).To(BeNumerically(">", 0))
		Expect(limits[i].Key).To(Equal(ticketing.EventPK(ticketing.OnSaleEvent)))
		Expect(first.Rate).To(BeNumerically("<", limits[i].Rate/2))

		By("in the first finding and the headline, with what to change")
		GinkgoWriter.Printf("%s\n%s\n%s\n", out.Capacity.Findings[0], out.Capacity.Findings[1], report.Headline(out))
		Expect(out.Capacity.Findings[0]).To(And(HavePrefix(`What stops this design first is the transactions on item "`+event+`"`),
			ContainSubstring(string(ticketing.HoldSeats)+" call holding it about 25.3 ms on DynamoDB"), ContainSubstring("[inferred: conflict-ceiling]"), ContainSubstring("shard the counter")))
		Expect(report.Headline(out)).To(ContainSubstring("; first limit: conflict limit on item " + event + ", driven by " + string(ticketing.HoldSeats)))
	})
})
