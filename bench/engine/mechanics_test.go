package engine_test

import (
	"errors"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/workload"
)

var _ = Describe("the engine's own mechanics", Label("unit"), func() {
	quiet := engine.Progress(GinkgoWriter)

	It("measures latency from each call's due time, so a stalled server cannot hide behind a busy worker", func(ctx SpecContext) {
		// One worker, calls due every 50 ms, each taking 100 ms: the queue
		// grows, and so must the latencies, by about 50 ms a call.
		sc := sleeping(100*time.Millisecond, workload.Scenario{
			Pacer: vegeta.ConstantPacer{Freq: 20, Per: time.Second}, Duration: time.Second})
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Workers(1), engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Results).To(HaveLen(19))
		first, last := out.Results[0].Latency, out.Results[18].Latency
		Expect(first).To(And(BeNumerically(">=", 100*time.Millisecond), BeNumerically("<", 200*time.Millisecond)))
		Expect(last).To(BeNumerically(">", 900*time.Millisecond), "the 19th call waited for 18 others")
	})

	DescribeTable("sends as many calls as the pacer asks for, when it asks",
		func(ctx SpecContext, pacer vegeta.Pacer, d time.Duration, want int) {
			out, err := engine.Run(ctx, newFakeDB(), sleeping(0, workload.Scenario{Pacer: pacer, Duration: d}), engine.Warmup(0), quiet)
			Expect(err).NotTo(HaveOccurred())
			Expect(len(out.Results)).To(BeNumerically("~", want, 1))
			first, last := out.Results[0].Timestamp, out.Results[len(out.Results)-1].Timestamp
			Expect(last.Sub(first)).To(BeNumerically("<", d), "every call was due within the run")
		},
		Entry("a constant 50 a second for 1 s", vegeta.ConstantPacer{Freq: 50, Per: time.Second}, time.Second, 49),
		Entry("a ramp from 10 a second, 20 more each second, for 2 s: 10·2 + 20·2²/2", vegeta.LinearPacer{
			StartAt: vegeta.Rate{Freq: 10, Per: time.Second}, Slope: 20}, 2*time.Second, 60),
	)

	It("counts the calls still waiting when the drain time runs out as not sent", func(ctx SpecContext) {
		sc := sleeping(100*time.Millisecond, workload.Scenario{
			Pacer: vegeta.ConstantPacer{Freq: 20, Per: time.Second}, Duration: time.Second})
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Workers(1), engine.Warmup(0), engine.Drain(200*time.Millisecond), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Unsent).To(BeNumerically(">", 0))
		Expect(len(out.Results) + out.Unsent).To(Equal(19))
	})

	It("calls back to back when the pacer sets no rate", func(ctx SpecContext) {
		sc := sleeping(10*time.Millisecond, workload.Scenario{Pacer: vegeta.ConstantPacer{}, Duration: 300 * time.Millisecond})
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Workers(2), engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(out.Results)).To(And(BeNumerically(">=", 30), BeNumerically("<=", 62)), "at most 2 workers × 300 ms / 10 ms")
	})

	It("creates one table and deletes it", func(ctx SpecContext) {
		db := newFakeDB()
		sc := sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: 100, Per: time.Second}, Duration: 100 * time.Millisecond})
		out, err := engine.Run(ctx, db, sc, engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Table).To(HavePrefix(designs.TablePrefix + "fake-bench-"))
		Expect(db.tableCount()).To(BeZero())
	})

	DescribeTable("refuses a scenario it cannot run, before creating anything",
		func(ctx SpecContext, change func(*workload.Scenario), want string) {
			db := newFakeDB()
			sc := sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: 1, Per: time.Second}, Duration: time.Second})
			change(&sc)
			_, err := engine.Run(ctx, db, sc, quiet)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(err).To(MatchError(ContainSubstring(want)))
			Expect(db.tableCount()).To(BeZero())
		},
		Entry("a pattern the design does not have", func(sc *workload.Scenario) { sc.Mix[0].Pattern = "AP-99" }, "AP-99 is not in design fake"),
		Entry("no weight at all", func(sc *workload.Scenario) { sc.Mix[0].Weight = 0 }, "no step with a weight"),
		Entry("no pacer", func(sc *workload.Scenario) { sc.Pacer = nil }, "no Pacer"),
		Entry("no duration", func(sc *workload.Scenario) { sc.Duration = 0 }, "no Duration"),
	)

	It("refuses an endpoint off this machine without the user's opt-in, and sends nothing", func(ctx SpecContext) {
		if env, _ := ddblocal.LoadEnv(); env.AllowRemote {
			Skip(ddblocal.EnvAllowRemote + " is set: the opt-in this spec checks for is given")
		}
		sent := errors.New("a request was sent")
		remote := ddblocal.Client("https://dynamodb.eu-west-1.amazonaws.com", func(o *dynamodb.Options) {
			o.HTTPClient = doerFunc(func(*http.Request) (*http.Response, error) { return nil, sent })
		})
		sc := sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: 1, Per: time.Second}, Duration: time.Second})
		_, err := engine.Run(ctx, remote, sc, quiet)
		Expect(err).To(MatchError(ContainSubstring(ddblocal.EnvAllowRemote + "=1")))
		Expect(err).NotTo(MatchError(sent))
	})
})

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }
