package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/workload"
)

// A spec design's scenario runs when named in full, and never as part of
// all, a design's default or the list.
func TestSpecDesignsRunOnlyWhenNamed(t *testing.T) {
	got, err := pickScenarios([]string{"leaderboard/launch-day", "ticketing/on-sale"})
	if err != nil || len(got) != 2 || got[0].Name != "leaderboard/launch-day" || got[1].Name != "ticketing/on-sale" {
		t.Fatalf("pickScenarios(leaderboard/launch-day, ticketing/on-sale) = %v, %v", names(got), err)
	}
	if _, err := pickScenarios([]string{"leaderboard"}); err == nil {
		t.Error("pickScenarios(leaderboard) ran a spec design's scenario as its default")
	}
	all, err := pickScenarios([]string{"all"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range specScenarios {
		if slices.Contains(names(all), sc.Name) || strings.Contains(scenarioNames(), sc.Name) {
			t.Errorf("%s is among all or the listed scenarios", sc.Name)
		}
	}
}

func names(scs []workload.Scenario) []string {
	var out []string
	for _, sc := range scs {
		out = append(out, sc.Name)
	}
	return out
}
