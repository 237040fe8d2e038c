package bench_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// shareDesign writes one small item per call under a partition key of its
// own for each pattern.
var shareDesign = designs.Design{Name: "share", Schema: designs.Schema{PK: "PK", SK: "SK"},
	Patterns: []designs.Pattern{
		{ID: "AP-01", Name: "write the first key", Op: designs.PutItem, Index: designs.MainTable},
		{ID: "AP-02", Name: "write the second key", Op: designs.PutItem, Index: designs.MainTable},
		{ID: "AP-03", Name: "write the third key", Op: designs.PutItem, Index: designs.MainTable}}}

// sharer puts an item under keys[i] for pattern AP-0(i+1).
type sharer struct {
	db    designs.DB
	table string
	keys  []string
}

func (d sharer) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (d sharer) Call(ctx context.Context, p designs.PatternID, _ int, r *rand.Rand) error {
	i := slices.IndexFunc(shareDesign.Patterns, func(q designs.Pattern) bool { return q.ID == p })
	_, err := d.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(d.table),
		Item: map[string]types.AttributeValue{"PK": s(d.keys[i]), "SK": s(fmt.Sprint(r.IntN(1000)))}})
	return err
}

// sharedKeys are three partition key values of a new on-demand table's
// four partitions: the first two on one, the third elsewhere.
func sharedKeys() []string {
	first, second, third := "K0", "", ""
	for i := 1; second == "" || third == ""; i++ {
		k := fmt.Sprintf("K%d", i)
		same := emulate.Placement(k, 4) == emulate.Placement(first, 4)
		switch {
		case same && second == "":
			second = k
		case !same && third == "":
			third = k
		}
	}
	return []string{first, second, third}
}

var _ = Describe("hot keys that share a partition", Label("engine"), func() {
	It("give one first-throttle rate, their partition's, not the one each key has alone", func(ctx SpecContext) {
		keys := sharedKeys()
		// 60 calls/s: the first key 30 WCU/s, the second 20, the third 10.
		// At limits × 0.02 a partition serves 20 WCU/s: the first key alone
		// would reach it at 40 requests/s, the two together at 24, which the
		// emulator holds them to once the partition's second of units is
		// spent. Throttled calls wait in the SDK's backoff for a second or
		// more: enough workers keep the pace while they do.
		// The window lasts until every key has had 20 calls end (about 2 s
		// on a quiet machine), a minute at most: a window of fixed length
		// gives a loaded machine's DynamoDB Local too few, or none.
		const calls = 20
		sc := workload.Scenario{Name: "share/two-hot-keys", Design: shareDesign, Pool: 3,
			Pacer: vegeta.ConstantPacer{Freq: 60, Per: time.Second}, Duration: time.Minute,
			Mix:    []workload.Step{{Pattern: "AP-01", Weight: 3}, {Pattern: "AP-02", Weight: 2}, {Pattern: "AP-03", Weight: 1}},
			Driver: func(db designs.DB, table string, _ int64) workload.Driver { return sharer{db, table, keys} }}
		out, err := bench.RunLimited(ctx, raw, sc, bench.Limits{Scale: 0.02}, engine.Workers(128), engine.Warmup(300*time.Millisecond),
			engine.MinCalls(calls), engine.Drain(500*time.Millisecond), engine.Progress(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Failure).To(BeNil())
		for _, p := range out.Patterns {
			Expect(p.Metrics.Requests).To(BeNumerically(">=", calls), "%s: the run reached its %s bound first", p.ID, sc.Duration)
		}

		// The mix draws keys at random, so the shares are the run's, not
		// 3:2: the heavier of the two sharing keys names the partition. A
		// key's demand is its served units and those of each call
		// throttled away from it, priced from its own request.
		hot := func(key string) capacity.HotKey {
			h := slices.IndexFunc(out.Capacity.Hot, func(h capacity.HotKey) bool { return h.Key == key })
			Expect(h).To(BeNumerically(">=", 0), "%s is not in the hot-keys table", key)
			return out.Capacity.Hot[h]
		}
		demand := func(h capacity.HotKey) float64 {
			i := slices.IndexFunc(out.Denied, func(u capacity.DeniedRow) bool { return u.Target == h.Target && u.Key == h.Key })
			if i < 0 {
				return h.WCU
			}
			return h.WCU + out.Denied[i].WCU
		}
		heavy, light := hot(keys[0]), hot(keys[1])
		if demand(light) > demand(heavy) || demand(light) == demand(heavy) && light.Key < heavy.Key {
			heavy, light = light, heavy
		}
		Expect(demand(light)).To(BeNumerically(">", 0))

		c := out.Capacity.Ceiling
		Expect(c).NotTo(BeNil())
		Expect(c.Key).To(Equal(heavy.Key))
		Expect(c.Sharing).NotTo(BeNil())
		Expect(c.Sharing.With).To(ContainElement(light.Key))
		Expect(c.Sharing.With).NotTo(ContainElement(keys[2]))

		By("giving the rate the emulator's own throttling table forecasts for that partition, the same demand on the same placement")
		Expect(out.Throttling).NotTo(BeNil())
		i := slices.IndexFunc(out.Throttling.Partitions, func(p emulate.PartitionThrottles) bool { return slices.Contains(p.Keys, keys[0]) })
		Expect(i).To(BeNumerically(">=", 0), "the emulator refused the shared partition")
		part := out.Throttling.Partitions[i]
		Expect(part.Keys).To(ContainElement(keys[1]))
		// What the emulator measured (held units over demand) moves with the
		// machine's load; on a quiet one it was within 10 % (README).
		GinkgoWriter.Printf("ceiling %.1f, emulator's forecast %.1f, measured %.1f, alone %.1f\n", c.Rate, part.ForecastRate, part.MeasuredRate, c.Sharing.Alone)
		Expect(c.Rate).To(BeNumerically("~", part.ForecastRate, 0.01*part.ForecastRate))

		By("and the same rate in the hot-keys table")
		Expect(heavy.ThrottleRate).To(BeNumerically("~", c.Rate, 1e-9*c.Rate))

		By("slower than the key alone by the share the other key adds to the partition")
		Expect(c.Sharing.Alone).To(BeNumerically(">", c.Rate), "the key alone, as the ceiling said before")
		Expect(c.Sharing.Alone / c.Rate).To(BeNumerically("~", (demand(heavy)+demand(light))/demand(heavy), 1e-9))
		Expect(report.Headline(out)).To(ContainSubstring("on its partition as placed with " + light.Key))
	})
})
