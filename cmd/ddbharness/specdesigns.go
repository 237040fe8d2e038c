package main

import (
	"slices"

	"github.com/ddbharness/ddbharness/internal/testdesigns/leaderboard"
	"github.com/ddbharness/ddbharness/internal/testdesigns/ticketing"
	"github.com/ddbharness/ddbharness/workload"
)

// specScenarios are the scenarios of the designs the specs keep for
// themselves (internal/testdesigns), out of the catalog: bench runs one
// when named in full, so that what a spec shows can be seen in a report,
// but never as a design's default, in all, or in the list.
var specScenarios = []workload.Scenario{ticketing.Browse, ticketing.OnSale, leaderboard.Season, leaderboard.LaunchDay}

// findSpecScenario is the spec design's scenario named name.
func findSpecScenario(name string) (workload.Scenario, bool) {
	i := slices.IndexFunc(specScenarios, func(sc workload.Scenario) bool { return sc.Name == name })
	if i < 0 {
		return workload.Scenario{}, false
	}
	return specScenarios[i], true
}
