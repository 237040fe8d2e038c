package bench_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/testdesigns/ticketing"
)

var _ = Describe("a design's refusals on DynamoDB Local", Label("engine"), func() {
	// 50 events of 2 seats each: a hold asks for 2 or more, so most find
	// the seats gone, and DynamoDB Local cancels their transactions for a
	// failed condition, which the design answers with its refusals. The
	// events are many so that holds seldom wait on one another.
	soldOut := func(ctx SpecContext) bench.Outcome {
		sc := ticketing.Scenario("sold-out", 50, 2, false)
		sc.Pacer, sc.Duration = vegeta.ConstantPacer{Freq: 40, Per: time.Second}, time.Minute
		out, err := bench.RunLimited(ctx, raw, sc, bench.Limits{Off: true}, engine.Warmup(0), engine.MinCalls(5),
			engine.Drain(500*time.Millisecond), engine.Progress(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Failure).To(BeNil())
		return out
	}
	holds := func(counts []engine.ErrorCount) (n int) {
		for _, c := range counts {
			if c.Pattern == string(ticketing.HoldSeats) {
				n += c.Calls
			}
		}
		return n
	}

	It("counts them apart from the errors, as answered calls", func(ctx SpecContext) {
		out := soldOut(ctx)
		refused := holds(out.Refusals)
		Expect(refused).To(BeNumerically(">", 0), "no hold was refused: the event never sold out")
		for _, c := range out.Refusals {
			Expect(c.Code).To(BeEquivalentTo(engine.StatusRefused))
		}
		for _, c := range out.Errors { // a transaction conflict after its retries stays an error
			Expect(c.Error).To(Equal("transaction conflict"), "a refusal among the errors: %+v", c)
		}
		Expect(engine.Refused(out.Total)).To(BeNumerically(">=", refused))
		Expect(report.Headline(out)).To(MatchRegexp(`% errors, \d+\.\d% refused;`))
	})
})
