package engine_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/workload"
)

// The engine's timing (latencies, pacing, drain, watch, saturation) is
// proven on an injected clock, in clock_test.go.
var _ = Describe("the engine's own mechanics", Label("unit"), func() {
	quiet := engine.Progress(GinkgoWriter)

	It("stops a run whose calls go to a closed port within seconds, and says why", func(ctx SpecContext) {
		closed := closedPort()
		sc := workload.Scenario{Name: "fake/closed", Design: fakeDesign, Pool: 1, Duration: time.Minute,
			Pacer: vegeta.ConstantPacer{Freq: 50, Per: time.Second}, Mix: []workload.Step{{Pattern: "AP-01", Weight: 1}},
			Driver: func(designs.DB, string, int64) workload.Driver { return getter{testbed.Client(closed)} }}
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Failure).NotTo(BeNil())
		Expect(out.Failure.Phase).To(Equal(engine.PhaseMeasure))
		Expect(out.Failure.Reason).To(ContainSubstring("calls in the last 1s failed"))
		Expect(out.Failure.Reason).To(ContainSubstring("connection refused"))
		// A bound far from both the run's minute and the failure's second:
		// it holds on a busy machine, and fails if the run goes on.
		Expect(out.Elapsed).To(BeNumerically("<", 15*time.Second))
		Expect(out.Elapsed-out.Failure.At).To(BeNumerically("~", 0, 3*time.Second), "the run ends soon after its failure")
		Expect(out.Elapsed).To(BeNumerically(">=", out.Failure.At))
	})

	It("fails a run whose measured window made no call: it measured nothing", func(ctx SpecContext) {
		sc := sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: 1, Per: time.Hour}, Duration: 100 * time.Millisecond})
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Total.Requests).To(BeZero())
		Expect(out.Failure).NotTo(BeNil(), "a run of no call is not complete")
		Expect(out.Failure.Phase).To(Equal(engine.PhaseMeasure))
		Expect(out.Failure.Reason).To(ContainSubstring("no call was made in the 100ms measured window"))
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
		Entry("a negative warm throughput", func(sc *workload.Scenario) { sc.Warm.Writes = -1 }, "want 0 (not declared) or more"),
		Entry("a maximum throughput below AWS's least", func(sc *workload.Scenario) { sc.MaxOnDemand.Reads = -1 }, "at least 1 unit per second"),
		Entry("a maximum throughput at the table quota", func(sc *workload.Scenario) { sc.MaxOnDemand.Writes = 40000 }, "below the on-demand table quota"),
		Entry("a maximum throughput on a provisioned table", func(sc *workload.Scenario) {
			sc.Design.Schema.Billing, sc.Design.Schema.RCU, sc.Design.Schema.WCU = types.BillingModeProvisioned, 5, 5
			sc.MaxOnDemand.Writes = 100
		}, "which is provisioned"),
		Entry("a negative throughput switched from", func(sc *workload.Scenario) { sc.SwitchedFrom.Reads = -5 }, "SwitchedFrom {Reads:-5 Writes:0}: want 0 (created on demand)"),
		Entry("a negative transaction hold", func(sc *workload.Scenario) { sc.TransactionHold = -time.Millisecond }, "TransactionHold -1ms: want 0 (DynamoDB's measured default)"),
		Entry("a step's transaction hold in seconds", func(sc *workload.Scenario) { sc.Mix[0].TransactionHold = 25 * time.Second }, "pattern AP-01's TransactionHold 25s: want 0 (DynamoDB's measured default) or a real DynamoDB transaction's time in flight, up to 10s"),
	)

	It("draws each step's keys from the pool it names", func(ctx SpecContext) {
		d := &pooled{top: map[designs.PatternID]int{}}
		sc := workload.Scenario{Name: "fake/pools", Design: twoPools, Pool: 50, Duration: 300 * time.Millisecond,
			Pacer:  vegeta.ConstantPacer{Freq: 400, Per: time.Second},
			Mix:    []workload.Step{{Pattern: "AP-01", Weight: 1, Entity: "few"}, {Pattern: "AP-02", Weight: 1, Entity: "many", Keys: workload.Zipf{S: 1.01}}},
			Driver: func(designs.DB, string, int64) workload.Driver { return d }}
		out, err := engine.Run(ctx, newFakeDB(), sc, engine.Warmup(0), quiet)
		Expect(err).NotTo(HaveOccurred())
		Expect(d.top["AP-01"]).To(Equal(2), "keys of the 3 few")
		Expect(d.top["AP-02"]).To(BeNumerically(">", 50), "keys of the 1,000 many, beyond the scenario's Pool")
		Expect(d.top["AP-02"]).To(BeNumerically("<", 1000))
		Expect(out.Patterns).To(ContainElement(HaveField("Keys", "uniform over few")))
	})

	It("refuses a step whose pool the driver does not have, naming the pools it has, and deletes its table", func(ctx SpecContext) {
		db := newFakeDB()
		sc := workload.Scenario{Name: "fake/pools", Design: twoPools, Pool: 5, Duration: time.Second,
			Pacer:  vegeta.ConstantPacer{Freq: 10, Per: time.Second},
			Mix:    []workload.Step{{Pattern: "AP-01", Weight: 1, Entity: "warehouse"}},
			Driver: func(designs.DB, string, int64) workload.Driver { return &pooled{top: map[designs.PatternID]int{}} }}
		_, err := engine.Run(ctx, db, sc, engine.Warmup(0), quiet)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(err).To(MatchError(ContainSubstring("AP-01 draws warehouse keys, but the driver's pools are few (3), many (1000)")))
		Expect(db.tableCount()).To(BeZero())

		sc.Driver = func(designs.DB, string, int64) workload.Driver { return sleeper{} }
		_, err = engine.Run(ctx, db, sc, engine.Warmup(0), quiet)
		Expect(err).To(MatchError(ContainSubstring("the driver's pools are none (the driver has no Pools method)")))
	})

	It("refuses an endpoint off this machine without the user's opt-in, and sends nothing", func(ctx SpecContext) {
		if env, _ := testbed.LoadEnv(); env.AllowRemote {
			Skip(testbed.EnvAllowRemote + " is set: the opt-in this spec checks for is given")
		}
		sent := errors.New("a request was sent")
		remote := testbed.Client("https://dynamodb.eu-west-1.amazonaws.com", func(o *dynamodb.Options) {
			o.HTTPClient = doerFunc(func(*http.Request) (*http.Response, error) { return nil, sent })
		})
		sc := sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: 1, Per: time.Second}, Duration: time.Second})
		_, err := engine.Run(ctx, remote, sc, quiet)
		Expect(err).To(MatchError(ContainSubstring(testbed.EnvAllowRemote + "=1")))
		Expect(err).NotTo(MatchError(sent))
	})
})

// closedPort is the endpoint of a loopback port nothing listens on.
func closedPort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	endpoint := "http://" + l.Addr().String()
	Expect(l.Close()).To(Succeed())
	return endpoint
}

// getter reads one item through a real SDK client.
type getter struct{ db *dynamodb.Client }

func (getter) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (g getter) Call(ctx context.Context, _ designs.PatternID, _ int, _ *rand.Rand) error {
	_, err := g.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ddbh-none"),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "1"}}})
	return err
}

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }
