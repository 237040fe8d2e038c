package lint_test

import (
	"context"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/workload"
)

// panicking is a driver whose Seed panics after a few entities.
type panicking struct{}

func (panicking) Seed(_ context.Context, n int, _ func(done, total int)) error {
	var entities []int
	for i := range n {
		entities = append(entities, i)
	}
	_ = entities[n+1] // out of range, as a bug in a seed would be
	return nil
}

func (panicking) Call(context.Context, designs.PatternID, int, *rand.Rand) error { return nil }

var _ = Describe("seeding", Label("unit"), func() {
	It("turns a Seed that panics into an error naming the design, not a crash", func(ctx SpecContext) {
		d := designs.Design{Name: "broken", Schema: designs.Schema{PK: "PK", SK: "SK"}}
		_, err := lint.SeedWith(ctx, d, func(designs.DB, string, int64) workload.Driver { return panicking{} }, 10)
		Expect(err).To(MatchError(And(ContainSubstring("lint broken: seed 10: the scenario driver's Seed panicked"),
			ContainSubstring("index out of range"), ContainSubstring("SCENARIO=broken"))))
	})
})
