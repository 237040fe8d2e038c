package scenarios_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// Every design's seed goes through its default scenario's driver, the way
// bench and lint seed it; the driver's NewLoader hands back the Loader it
// is given, so the spec chooses how the seed loads.
var _ = Describe("the fixtures loader", loaderSpecs, func() {
	DescribeTable("folds each design's seed into exactly the items its patterns store one call at a time, the same for the same seed",
		func(ctx SpecContext, sc workload.Scenario) {
			const n = 12
			folded, direct, other := newTable(ctx, sc.Design, "folded"), newTable(ctx, sc.Design, "direct"), newTable(ctx, sc.Design, "other")
			var reports [][2]int
			// A small flush threshold and memory make several flushes, and
			// make later updates read their items back from the table.
			l := fixtures.NewLoader(db, folded, sc.Design.Schema, fixtures.FlushAt(10), fixtures.Keep(5))
			Expect(sc.Driver(l, folded, seed()).Seed(ctx, n, func(done, total int) { reports = append(reports, [2]int{done, total}) })).To(Succeed())
			Expect(sc.Driver(fixtures.NewLoader(db, direct, sc.Design.Schema, fixtures.Direct()), direct, seed()).Seed(ctx, n, nil)).To(Succeed())
			Expect(sc.Driver(db, other, seed()+1).Seed(ctx, n, nil)).To(Succeed())

			got, want := scanAll(ctx, folded), scanAll(ctx, direct)
			Expect(got).NotTo(BeEmpty())
			Expect(got).To(ConsistOf(want), "the items the patterns store")
			Expect(l.Written()).To(BeNumerically(">=", len(got)), "every item went through a batch")
			Expect(scanAll(ctx, other)).NotTo(ConsistOf(got), "another seed, other items")

			// The contract of Driver.Seed's progress: entities done of n,
			// never going back, ending at n of n.
			Expect(len(reports)).To(BeNumerically(">", 1), "a report per flush")
			Expect(reports[len(reports)-1]).To(Equal([2]int{n, n}))
			for i := 1; i < len(reports); i++ {
				Expect(reports[i][0]).To(BeNumerically(">=", reports[i-1][0]), "progress never goes back")
				Expect(reports[i][1]).To(Equal(n), "the total is the entities asked for")
			}
		},
		scenarioEntries(scenarios.Defaults()), // one per design
	)

	It("refuses a write to another table", func(ctx SpecContext) {
		l := fixtures.NewLoader(db, "ddbh-agencies-mine", agencies.Schema)
		err := agencies.Table{DB: l, Name: "ddbh-agencies-other"}.CreateAgency(ctx, fixtures.NewAgencies(seed()).Agency())
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})

	It("hands back a Loader it is given for the same table, and wraps one of another", func() {
		l := fixtures.NewLoader(db, "ddbh-agencies-mine", agencies.Schema, fixtures.Direct())
		Expect(fixtures.NewLoader(l, "ddbh-agencies-mine", agencies.Schema)).To(BeIdenticalTo(l))
		Expect(fixtures.NewLoader(l, "ddbh-agencies-other", agencies.Schema)).NotTo(BeIdenticalTo(l))
	})
})
