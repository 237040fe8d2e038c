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
	return check(d, seed{pool: pool / 2, items: half}, seed{pool: pool, items: full}, nil)
}

// SeedWith seeds a design through driver, as Run does through the
// scenario named after the design, and returns how many items it wrote.
func SeedWith(ctx context.Context, d designs.Design, driver func(designs.DB, string, int64) workload.Driver, pool int) (int, error) {
	s, err := seedWith(ctx, d, workload.Scenario{Name: d.Name, Design: d, Driver: driver}, pool, DefaultRandomSeed, false)
	return len(s.items), err
}

// Probe is what probing one write step of a scenario did.
type Probe struct {
	Pattern   designs.PatternID
	Calls, OK int
	Failure   string
}

// Probes seeds sc's pool and probes its write steps, as Run does.
func Probes(ctx context.Context, d designs.Design, sc workload.Scenario) []Probe {
	var out []Probe
	for _, p := range probeScenario(ctx, d, sc, DefaultRandomSeed) {
		out = append(out, Probe{Pattern: p.pattern, Calls: p.calls, OK: p.ok, Failure: p.failure})
	}
	return out
}
