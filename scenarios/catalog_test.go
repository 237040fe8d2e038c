package scenarios_test

import (
	"math/rand/v2"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// defaultLoadShare is the load time make bench may spend on one design's
// default scenario: the six designs' defaults run, seeding and warm-up
// included, in under three minutes, and each design added or
// imported adds at most this.
const defaultLoadShare = 20 * time.Second

var _ = Describe("the scenario catalog", Label("unit"), func() {
	It("names each scenario once, after its design", func() {
		seen := map[string]bool{}
		for _, sc := range scenarios.All {
			Expect(seen[sc.Name]).To(BeFalse(), "%s listed twice", sc.Name)
			seen[sc.Name] = true
			Expect(sc.Name).To(HavePrefix(sc.Design.Name+"/"), "scenario %s of design %s", sc.Name, sc.Design.Name)
		}
	})

	It("gives every design a default scenario, in the designs' order", func() {
		var want []string
		for _, d := range all.Designs {
			sc, ok := scenarios.Default(d.Name)
			Expect(ok).To(BeTrue(), "design %s has no scenario", d.Name)
			Expect(sc.Design.Name).To(Equal(d.Name))
			want = append(want, sc.Name)
		}
		var got []string
		for _, sc := range scenarios.Defaults() {
			got = append(got, sc.Name)
		}
		Expect(got).To(Equal(want))
		_, ok := scenarios.Default("no-such-design")
		Expect(ok).To(BeFalse())
	})

	It("finds a scenario by its name, and no other", func() {
		for _, sc := range scenarios.All {
			got, ok := scenarios.Find(sc.Name)
			Expect(ok).To(BeTrue(), sc.Name)
			Expect(got.Name).To(Equal(sc.Name))
		}
		_, ok := scenarios.Find("shop/no-such-scenario")
		Expect(ok).To(BeFalse())
	})

	It("keeps each default's load within its share of make bench's time", func() {
		for _, sc := range scenarios.Defaults() {
			Expect(sc.Duration).To(BeNumerically("<=", defaultLoadShare),
				"%s, %s's default, measures %s: make bench runs every design's default, each in %s at most", sc.Name, sc.Design.Name, sc.Duration, defaultLoadShare)
		}
	})

	DescribeTable("every scenario runs catalog patterns at rates DynamoDB Local sustains",
		func(sc workload.Scenario) {
			Expect(sc.Design.Validate()).To(Succeed())
			Expect(sc.Pool).To(BeNumerically(">", 0))
			Expect(sc.Duration).To(BeNumerically(">", 0))
			Expect(sc.Pacer).NotTo(BeNil())
			Expect(sc.Driver).NotTo(BeNil())
			Expect(sc.Mix).NotTo(BeEmpty())
			seen := map[designs.PatternID]bool{}
			for _, st := range sc.Mix {
				_, ok := sc.Design.Pattern(st.Pattern)
				Expect(ok).To(BeTrue(), "%s is not in the %s catalog", st.Pattern, sc.Design.Name)
				Expect(seen[st.Pattern]).To(BeFalse(), "%s listed twice", st.Pattern)
				seen[st.Pattern] = true
				Expect(st.Weight).To(BeNumerically(">", 0), "weight of %s", st.Pattern)
			}
			peak := scenarios.Peak(sc)
			Expect(peak).To(BeNumerically("<=", scenarios.LocalReadKnee/3), "calls a second at the peak")
			Expect(peak*scenarios.Share(sc, designs.TransactWriteItems)).To(BeNumerically("<=", scenarios.LocalTransactKnee/3),
				"transactions a second at the peak")
		},
		scenarioEntries(scenarios.All),
	)

	DescribeTable("Peak is the highest rate the pacer asks for",
		func(p vegeta.Pacer, d time.Duration, want float64) {
			Expect(scenarios.Peak(workload.Scenario{Pacer: p, Duration: d})).To(BeNumerically("~", want, 0.5))
		},
		Entry("a constant rate is its rate", vegeta.ConstantPacer{Freq: 100, Per: time.Second}, 20*time.Second, 100.0),
		Entry("a ramp peaks at its end", vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 50, Per: time.Second}, Slope: 5}, 20*time.Second, 150.0),
		Entry("a sine peaks at its mean plus its amplitude",
			vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 120, Per: time.Second}, Amp: vegeta.Rate{Freq: 100, Per: time.Second}, StartAt: vegeta.Trough},
			20*time.Second, 220.0),
		Entry("a sine cut short peaks where it stops", // from the trough, a quarter period is back at the mean
			vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 120, Per: time.Second}, Amp: vegeta.Rate{Freq: 100, Per: time.Second}, StartAt: vegeta.Trough},
			5*time.Second, 120.0),
	)

	DescribeTable("Share is the weight on the given operations over the whole mix",
		func(mix []workload.Step, ops []designs.Operation, want float64) {
			Expect(scenarios.Share(workload.Scenario{Design: shop.Design, Mix: mix}, ops...)).To(BeNumerically("~", want, 1e-9))
		},
		Entry("no steps, no share", nil, []designs.Operation{designs.GetItem}, 0.0),
		Entry("one step of three by weight",
			[]workload.Step{{Pattern: shop.GetUserID, Weight: 1}, {Pattern: shop.ListUsersID, Weight: 1}, {Pattern: shop.PlaceOrderID, Weight: 2}},
			[]designs.Operation{designs.TransactWriteItems}, 0.5),
		Entry("several operations add up",
			[]workload.Step{{Pattern: shop.GetUserID, Weight: 3}, {Pattern: shop.ListUsersID, Weight: 1}, {Pattern: shop.PlaceOrderID, Weight: 4}},
			[]designs.Operation{designs.GetItem, designs.Query}, 0.5),
		Entry("a pattern outside the catalog counts for no operation",
			[]workload.Step{{Pattern: "AP-99", Weight: 1}, {Pattern: shop.GetUserID, Weight: 1}},
			[]designs.Operation{designs.GetItem}, 0.5),
	)

	It("has every driver refuse calls before its seed", func(ctx SpecContext) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, sc := range scenarios.All {
			d := sc.Driver(nil, "never-created", 1)
			Expect(d.Call(ctx, sc.Mix[0].Pattern, 0, r)).To(MatchError(scenarios.ErrNotSeeded), sc.Name)
		}
	})

	It("has every scenario say what it is for", func() {
		for _, sc := range scenarios.All {
			Expect(strings.TrimSpace(sc.About)).NotTo(BeEmpty(), sc.Name)
		}
	})
})
