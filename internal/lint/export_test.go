package lint

import (
	"context"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// CheckItems runs the checks on hand-made items, seeded as if at pool and
// at half of it, for specs of the declared checks.
func CheckItems(d designs.Design, pool int, half, full []ddbitem.Item) []Finding {
	return check(d, seed{pool: pool / 2, items: half}, seed{pool: pool, items: full})
}

// SeedWith seeds a design through driver, as Run does through the design's
// default scenario, and returns how many items it wrote.
func SeedWith(ctx context.Context, d designs.Design, driver func(designs.DB, string, int64) workload.Driver, pool int) (int, error) {
	s, err := seedWith(ctx, d, driver, pool, DefaultSeed, false)
	return len(s.items), err
}
