package cost_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/cost"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// fake is a design with one GSI and a pattern per kind of operation.
var fake = designs.Design{Name: "fake",
	Schema: designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "GSI1", PK: "G", SK: "GS"}}},
	Patterns: []designs.Pattern{
		{ID: "AP-01", Name: "get", Op: designs.GetItem, Index: designs.MainTable},
		{ID: "AP-02", Name: "put", Op: designs.PutItem, Index: designs.MainTable},
		{ID: "AP-03", Name: "list", Op: designs.Query, Index: designs.MainTable, Pages: true},
		{ID: "AP-04", Name: "list by group", Op: designs.Query, Index: "GSI1", Pages: true},
		{ID: "AP-05", Name: "move", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2},
		{ID: "AP-06", Name: "list all", Op: designs.Query, Index: designs.MainTable, AllPages: true},
		{ID: "AP-07", Name: "peek", Op: designs.GetItem, Index: designs.MainTable},
		{ID: "AP-08", Name: "put big", Op: designs.PutItem, Index: designs.MainTable},
		{ID: "AP-09", Name: "add checked", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 100},
	}}

// rows seeds n partitions of perPart items, each 35 bytes of keys and
// names besides its payload, under one key on the table and in GSI1 alike.
type rows struct {
	db               designs.DB
	table            string
	perPart, payload int
}

func (r rows) Seed(ctx context.Context, n int, _ func(done, total int)) error {
	for i := range n {
		for j := range r.perPart {
			pk, sk := fmt.Sprintf("P#%04d", i), fmt.Sprintf("S#%04d", j)
			item := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk), "G": s("G" + pk[1:]), "GS": s(sk),
				"Data": s(strings.Repeat("x", r.payload))}
			if _, err := r.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(r.table), Item: item}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Call runs what the patterns from AP-07 on do, on the key-th partition;
// AP-03 queries, which the in-memory table does not serve; the others make
// no request, so the estimate reckons them from the seeded sizes.
func (r rows) Call(ctx context.Context, p designs.PatternID, key int, rnd *rand.Rand) error {
	pk := fmt.Sprintf("P#%04d", key)
	row := func(sk string, payload int) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk), "G": s("G" + pk[1:]), "GS": s(sk), "Data": s(strings.Repeat("x", payload))}
	}
	var err error
	switch p {
	case "AP-03":
		_, err = r.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(r.table)})
	case "AP-07": // eventually consistent
		_, err = r.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(r.table), Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s("S#0000")}})
	case "AP-08": // 5,035 bytes
		_, err = r.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(r.table), Item: row(fmt.Sprintf("B#%04d", rnd.IntN(1e4)), 5000)})
	case "AP-09": // a put and a check of two small items
		_, err = r.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(r.table), Item: row(fmt.Sprintf("N#%04d", rnd.IntN(1e4)), payload)}},
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String(r.table), Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s("S#0000")},
				ConditionExpression: aws.String("attribute_exists(PK)")}},
		}})
	}
	return err
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// small items: 1,935 bytes, two write units and one read unit each; a
// partition of three is 5,805 bytes, two read units.
const (
	parts   = 10
	perPart = 3
	payload = 1900
)

func scenario(pacer vegeta.Pacer, d time.Duration, mix ...workload.Step) workload.Scenario {
	return workload.Scenario{Name: "fake/test", Design: fake, Pool: parts, Pacer: pacer, Duration: d, Mix: mix,
		Driver: func(db designs.DB, table string, _ int64) workload.Driver { return rows{db, table, perPart, payload} }}
}

func perSecond(n int) vegeta.Pacer { return vegeta.ConstantPacer{Freq: n, Per: time.Second} }

func step(id designs.PatternID, weight int) workload.Step {
	return workload.Step{Pattern: id, Weight: weight}
}

// lineOf is the estimate's line whose What starts with prefix.
func lineOf(e cost.Estimate, prefix string) cost.Line {
	for _, l := range e.Lines {
		if strings.HasPrefix(l.What, prefix) {
			return l
		}
	}
	Fail(fmt.Sprintf("no line %q among %+v", prefix, e.Lines))
	return cost.Line{}
}

var _ = Describe("counting calls", Label("unit"), func() {
	DescribeTable("counts the calls the pacer asks for, as the engine sends them",
		func(ctx SpecContext, p cost.Plan, want int) {
			e, err := cost.Of(ctx, p)
			Expect(err).NotTo(HaveOccurred())
			reads := lineOf(e, "reads:")
			Expect(reads.Units).To(BeNumerically("==", want), "one read unit a call")
			Expect(reads.What).To(Equal(fmt.Sprintf("reads: %s calls", group(want))))
		},
		// The engine's schedule sends the first call one interval in and
		// none at the end, in each phase.
		Entry("a constant 100 a second for 10 s after a 2 s warm-up: 999 + 199",
			cost.Plan{Scenario: scenario(perSecond(100), 10*time.Second, step("AP-01", 1)), Warmup: 2 * time.Second}, 1198),
		Entry("a constant 50 a second for 1 s, due from 20 ms to 980 ms",
			cost.Plan{Scenario: scenario(perSecond(50), time.Second, step("AP-01", 1))}, 49),
		Entry("a ramp from 10 a second, 20 more each second, for 2 s: 10·2 + 20·2²/2 due by 2 s, the last not before it",
			cost.Plan{Scenario: scenario(vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 10, Per: time.Second}, Slope: 20}, 2*time.Second,
				step("AP-01", 1))}, 59),
		Entry("a duration and a constant rate that override the scenario's",
			cost.Plan{Scenario: scenario(vegeta.ConstantPacer{}, time.Hour, step("AP-01", 1)), Duration: 5 * time.Second, Rate: 20}, 99),
	)

	It("splits the calls over the mix by weight", func(ctx SpecContext) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1))})
		Expect(err).NotTo(HaveOccurred())
		Expect(lineOf(e, "reads:").Units).To(BeNumerically("~", 999*3/4.0, 1e-9))
		// A write: two units on the table, two on GSI1.
		Expect(lineOf(e, "writes:").Units).To(BeNumerically("~", 999/4.0*4, 1e-9))
		Expect(lineOf(e, "writes:").What).To(Equal("writes: 250 calls"))
	})

	It("refuses a pacer with no rate, naming the fix", func(ctx SpecContext) {
		_, err := cost.Of(ctx, cost.Plan{Scenario: scenario(vegeta.ConstantPacer{}, time.Second, step("AP-01", 1))})
		Expect(err).To(MatchError(cost.ErrUnpaced))
		Expect(err).To(MatchError(And(ContainSubstring("cost fake/test"), ContainSubstring("sets no rate"),
			ContainSubstring("needs a paced scenario"), ContainSubstring("--rate"))))
	})

	DescribeTable("refuses a plan that could not run",
		func(ctx SpecContext, p cost.Plan, want string) {
			_, err := cost.Of(ctx, p)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a negative warm-up", cost.Plan{Scenario: scenario(perSecond(1), time.Second, step("AP-01", 1)), Warmup: -time.Second}, "warm-up -1s"),
		Entry("a rate that is no number", cost.Plan{Scenario: scenario(perSecond(1), time.Second, step("AP-01", 1)), Rate: math.NaN()}, "rate NaN"),
		Entry("a rate below one a second", cost.Plan{Scenario: scenario(perSecond(1), time.Second, step("AP-01", 1)), Rate: 0.2}, "1 or more"),
		Entry("a pattern the design lacks", cost.Plan{Scenario: scenario(perSecond(1), time.Second, step("AP-99", 1))}, "AP-99"),
	)
})

var _ = Describe("request units per call", Label("unit"), func() {
	unitsOf := func(ctx SpecContext, sc workload.Scenario) (rru, wru float64) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: sc})
		Expect(err).NotTo(HaveOccurred())
		calls := 49.0 // 50 a second for 1 s
		return lineOf(e, "reads:").Units / calls, lineOf(e, "writes:").Units / calls
	}

	DescribeTable("charges each operation by DynamoDB's unit rules on the seeded sizes",
		func(ctx SpecContext, id designs.PatternID, rru, wru float64) {
			gotR, gotW := unitsOf(ctx, scenario(perSecond(50), time.Second, step(id, 1)))
			Expect([]float64{gotR, gotW}).To(Equal([]float64{rru, wru}), "read units, write units per call")
		},
		Entry("GetItem: an item under 4 KB, strongly consistent", designs.PatternID("AP-01"), 1.0, 0.0),
		Entry("PutItem: an item under 2 KB on the table and on its GSI", designs.PatternID("AP-02"), 0.0, 4.0),
		Entry("Query on the table, which the in-memory table does not serve: a 5,805-byte collection, strongly consistent",
			designs.PatternID("AP-03"), 2.0, 0.0),
		Entry("Query on a GSI: the same collection, eventually consistent", designs.PatternID("AP-04"), 1.0, 0.0),
		Entry("TransactWriteItems of two actions: the table doubled, the GSI not", designs.PatternID("AP-05"), 0.0, 2*(2*2+2.0)),
	)

	DescribeTable("runs a pattern on the seeded items in memory, where the table serves its requests",
		func(ctx SpecContext, id designs.PatternID, rru, wru float64) {
			gotR, gotW := unitsOf(ctx, scenario(perSecond(50), time.Second, step(id, 1)))
			Expect([]float64{gotR, gotW}).To(Equal([]float64{rru, wru}), "read units, write units per call")
		},
		Entry("GetItem, eventually consistent as the call asks", designs.PatternID("AP-07"), 0.5, 0.0),
		Entry("PutItem of 5,035 bytes: five units on the table, five on the GSI", designs.PatternID("AP-08"), 0.0, 10.0),
		Entry("TransactWriteItems of a put and a check, not the 100 actions it may hold: the put 2×2 + 2, the check 2×2",
			designs.PatternID("AP-09"), 0.0, 10.0),
	)

	It("reads at most one 1 MB page, unless the pattern reads every page", func(ctx SpecContext) {
		big := func(id designs.PatternID) workload.Scenario {
			sc := scenario(perSecond(50), time.Second, step(id, 1))
			sc.Pool = 1
			sc.Driver = func(db designs.DB, table string, _ int64) workload.Driver { return rows{db, table, 600, payload} }
			return sc
		}
		page, _ := unitsOf(ctx, big("AP-03"))
		Expect(page).To(Equal(256.0), "1 MB in 4 KB units")
		all, _ := unitsOf(ctx, big("AP-06"))
		Expect(all).To(Equal(256.0+28), "the second page's 59 entries too: 541 fill the first")
	})
})

// provisioned is sc on a provisioned table of 5 RCU and 3 WCU.
func provisioned(sc workload.Scenario) workload.Scenario {
	sc.Design.Schema.Billing = types.BillingModeProvisioned
	sc.Design.Schema.RCU, sc.Design.Schema.WCU = 5, 3
	return sc
}

var _ = Describe("billing", Label("unit"), func() {

	It("prices requests on demand by the million", func(ctx SpecContext) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1))})
		Expect(err).NotTo(HaveOccurred())
		reads, writes, seed := lineOf(e, "reads:"), lineOf(e, "writes:"), lineOf(e, "seed:")
		Expect(reads.Price).To(BeNumerically("~", 0.125e-6, 1e-15))
		Expect(writes.Price).To(BeNumerically("~", 0.625e-6, 1e-15))
		Expect(reads.Dollars).To(BeNumerically("~", reads.Units*0.125e-6, 1e-15))
		Expect(seed.Units).To(Equal(float64(parts*perPart*4)), "each seeded item: two units on the table, two on GSI1")
		Expect(seed.What).To(Equal("seed: 30 item writes"))
		for _, l := range e.Lines {
			Expect(l.Source).To(Equal("https://aws.amazon.com/dynamodb/pricing/on-demand/"))
		}
		Expect(e.Lines).NotTo(ContainElement(HaveField("Unit", "RCU-hour")))
	})

	It("prices a provisioned table's capacity by the hour, its requests at nothing more", func(ctx SpecContext) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: provisioned(scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1))),
			Warmup: 2 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		for _, prefix := range []string{"reads:", "writes:", "seed:"} {
			Expect(lineOf(e, prefix).Units).To(BeNumerically(">", 0))
			Expect(lineOf(e, prefix).Dollars).To(BeZero())
		}
		rcu, wcu := lineOf(e, "read capacity:"), lineOf(e, "write capacity:")
		Expect(rcu.What).To(Equal("read capacity: 5 RCU × (table + 1 GSI) × 1 h"))
		Expect(rcu.Units).To(Equal(10.0))
		Expect(rcu.Dollars).To(BeNumerically("~", 10*0.00013, 1e-12))
		Expect(wcu.Units).To(Equal(6.0))
		Expect(wcu.Dollars).To(BeNumerically("~", 6*0.00065, 1e-12))
		Expect(rcu.Source).To(Equal("https://aws.amazon.com/dynamodb/pricing/provisioned/"))
		Expect(e.Total).To(BeNumerically("~", rcu.Dollars+wcu.Dollars+lineOf(e, "storage:").Dollars, 1e-15))
	})

	DescribeTable("bills every hour started, the table's lifecycle included",
		func(ctx SpecContext, d time.Duration, hours float64) {
			e, err := cost.Of(ctx, cost.Plan{Scenario: provisioned(scenario(perSecond(1), d, step("AP-01", 1)))})
			Expect(err).NotTo(HaveOccurred())
			Expect(lineOf(e, "read capacity:").Units).To(Equal(5 * 2 * hours))
		},
		Entry("50 min and 10 to create, seed and delete: one hour", 50*time.Minute, 1.0),
		Entry("a second more: two", 50*time.Minute+time.Second, 2.0),
	)

	It("refuses a provisioned table without capacity", func(ctx SpecContext) {
		sc := provisioned(scenario(perSecond(1), time.Second, step("AP-01", 1)))
		sc.Design.Schema.RCU = 0
		_, err := cost.Of(ctx, cost.Plan{Scenario: sc})
		Expect(err).To(MatchError(And(ContainSubstring("0 RCU"), ContainSubstring("1 or more"))))
	})

	It("keeps a storage line: the items and index entries, 100 bytes of overhead each, for the table's lifetime", func(ctx SpecContext) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: scenario(perSecond(1), time.Second, step("AP-01", 1))})
		Expect(err).NotTo(HaveOccurred())
		storage := lineOf(e, "storage:")
		bytes := float64(parts * perPart * 2 * (1935 + 100)) // each item on the table and in GSI1
		lifetime := time.Second + cost.LifecycleAllowance
		Expect(storage.Units).To(BeNumerically("~", bytes/1e9*lifetime.Hours()/730, 1e-15))
		Expect(storage.Price).To(Equal(0.25))
		Expect(storage.What).To(Equal("storage: 119 KB for 10m1s"))
	})
})

var _ = Describe("a design of the repository", Label("unit"), func() {
	It("estimates shop's default scenario: a positive, finite total and a line per kind", func(ctx SpecContext) {
		sc, ok := scenarios.Default("shop")
		Expect(ok).To(BeTrue())
		e, err := cost.Of(ctx, cost.Plan{Scenario: sc, Warmup: 3 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Total).To(And(BeNumerically(">", 0), BeNumerically("<", math.Inf(1))))
		sum := 0.0
		for _, l := range e.Lines {
			Expect(l.Dollars).To(And(BeNumerically(">=", 0), BeNumerically("<", math.Inf(1))), l.What)
			Expect(l.Units).To(BeNumerically(">", 0), l.What)
			Expect(l.Dollars).To(BeNumerically("~", l.Units*l.Price, 1e-12), "%s: its units at its price", l.What)
			sum += l.Dollars
		}
		Expect(e.Total).To(BeNumerically("~", sum, 1e-12))
		for _, prefix := range []string{"reads:", "writes:", "seed:", "storage:"} {
			Expect(lineOf(e, prefix).Dollars).To(BeNumerically(">", 0), prefix)
		}
		Expect(e.Basis).To(ContainSubstring("estimated from the fixtures' sizes"))
	})

	It("gives each shard the whole run's estimate, and says so", func(ctx SpecContext) {
		sc := scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1))
		one, err := cost.Of(ctx, cost.Plan{Scenario: sc})
		Expect(err).NotTo(HaveOccurred())
		four, err := cost.Of(ctx, cost.Plan{Scenario: sc, Shards: 4})
		Expect(err).NotTo(HaveOccurred())
		Expect(four.Lines).To(Equal(one.Lines))
		Expect(four.Basis).To(ContainSubstring("whole run over 4 shards: each shard prints this same estimate"))
		Expect(one.Basis).NotTo(ContainSubstring("shard"))
	})
})

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var _ = Describe("writing an estimate", Label("unit"), func() {
	DescribeTable("renders the lines, the total and the basis as in testdata",
		func(ctx SpecContext, name string, p cost.Plan) {
			e, err := cost.Of(ctx, p)
			Expect(err).NotTo(HaveOccurred())
			var out bytes.Buffer
			Expect(e.Write(&out)).To(Succeed())
			path := filepath.Join("testdata", name)
			if *update {
				Expect(os.WriteFile(path, out.Bytes(), 0o644)).To(Succeed())
				return
			}
			want, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred(), "run go test -update to write it")
			Expect(out.String()).To(Equal(string(want)), "run go test -update and review the diff")
		},
		Entry("on demand", "on-demand.txt",
			cost.Plan{Scenario: scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1), step("AP-09", 1)), Warmup: 2 * time.Second}),
		Entry("provisioned, over four shards", "provisioned.txt",
			cost.Plan{Scenario: provisioned(scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1), step("AP-09", 1))),
				Warmup: 2 * time.Second, Shards: 4}),
	)

	It("aligns a table for people, then the total and the prices' source and date", func(ctx SpecContext) {
		e, err := cost.Of(ctx, cost.Plan{Scenario: scenario(perSecond(100), 10*time.Second, step("AP-01", 3), step("AP-02", 1))})
		Expect(err).NotTo(HaveOccurred())
		var out bytes.Buffer
		Expect(e.Write(&out)).To(Succeed())
		text := out.String()
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		Expect(lines[0]).To(MatchRegexp(`^what\s+units\s+unit price\s+dollars$`))
		total := lines[len(lines)-2]
		Expect(total).To(MatchRegexp(`^total\s+\$0\.\d{4}$`))
		for _, l := range lines[:len(lines)-1] {
			Expect(len([]rune(l))).To(Equal(len([]rune(total))), "right-aligned dollars: %q", l)
		}
		Expect(text).To(ContainSubstring("$0.125 per million RRU"))
		Expect(lines[len(lines)-1]).To(And(ContainSubstring("us-east-1 list prices of "+cost.PriceDate),
			ContainSubstring("https://aws.amazon.com/dynamodb/pricing/on-demand/"), ContainSubstring("estimated from the fixtures' sizes")))
	})
})

// group renders n with thousands separators, as the estimate does.
func group(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
