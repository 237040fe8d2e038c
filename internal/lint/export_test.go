package lint

import (
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// CheckItems runs the checks on hand-made items, seeded as if at pool and
// at half of it, for specs of the declared checks.
func CheckItems(d designs.Design, pool int, half, full []ddbitem.Item) []Finding {
	return check(d, seed{pool: pool / 2, items: half}, seed{pool: pool, items: full})
}
