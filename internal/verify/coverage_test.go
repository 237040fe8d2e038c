package verify

import (
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/designs"
)

var shop = designs.Design{Name: "shop", Patterns: []designs.Pattern{
	{ID: "AP-01", Name: "get user", Op: designs.GetItem, Index: designs.MainTable},
	{ID: "AP-02", Name: "list users", Op: designs.Query, Index: designs.MainTable},
}}

func spec(state types.SpecState, container []string, leaf ...string) types.SpecReport {
	return types.SpecReport{LeafNodeType: types.NodeTypeIt, State: state,
		ContainerHierarchyLabels: [][]string{container}, LeafNodeLabels: leaf}
}

func TestMeasure(t *testing.T) {
	tests := []struct {
		name      string
		reports   []types.Report
		wantCells []Cell
		wantGaps  int
		wantStray []string
	}{
		{
			name: "every pattern passed",
			reports: []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
				spec(types.SpecStatePassed, []string{"AP-01", "main-table"}),
				spec(types.SpecStatePassed, []string{"AP-02"}),
				spec(types.SpecStatePassed, nil, "AP-02"),
			}}},
			wantCells: []Cell{{Passed: 1}, {Passed: 2}},
		},
		{
			name: "a failure and a missing pattern are gaps",
			reports: []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
				spec(types.SpecStateFailed, []string{"AP-01"}),
			}}},
			wantCells: []Cell{{Failed: 1}, {}},
			wantGaps:  2,
		},
		{
			name: "skipped specs prove nothing",
			reports: []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
				spec(types.SpecStatePassed, []string{"AP-01"}),
				spec(types.SpecStateSkipped, []string{"AP-02"}),
			}}},
			wantCells: []Cell{{Passed: 1}, {Skipped: 1}},
			wantGaps:  1,
		},
		{
			name: "another design's labels do not count, a typo is stray",
			reports: []types.Report{
				{SuiteLabels: []string{"design:agencies"}, SpecReports: types.SpecReports{spec(types.SpecStatePassed, []string{"AP-01"})}},
				{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
					spec(types.SpecStatePassed, []string{"AP-01"}),
					spec(types.SpecStatePassed, []string{"AP-20", "GSI1"}),
				}},
			},
			wantCells: []Cell{{Passed: 1}, {}},
			wantGaps:  1,
			wantStray: []string{"design:agencies AP-01", "design:shop AP-20"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := Measure([]designs.Design{shop}, tt.reports)
			var cells []Cell
			for _, r := range cov.Rows {
				cells = append(cells, r.Cell)
			}
			if !slices.Equal(cells, tt.wantCells) {
				t.Errorf("Measure(...) cells = %+v, want %+v", cells, tt.wantCells)
			}
			if got := len(cov.Gaps()); got != tt.wantGaps {
				t.Errorf("Measure(...).Gaps() = %q, want %d gaps", cov.Gaps(), tt.wantGaps)
			}
			if !slices.Equal(cov.Stray, tt.wantStray) {
				t.Errorf("Measure(...).Stray = %q, want %q", cov.Stray, tt.wantStray)
			}
		})
	}
}
