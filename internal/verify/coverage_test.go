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

func TestMeasureFiltered(t *testing.T) {
	other := designs.Design{Name: "agencies", Patterns: []designs.Pattern{
		{ID: "AP-01", Name: "get agency", Op: designs.GetItem, Index: designs.MainTable},
	}}
	all := []designs.Design{shop, other}
	reports := []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
		spec(types.SpecStatePassed, []string{"AP-02"}),
		spec(types.SpecStateSkipped, []string{"AP-01"}), // outside the filter
	}}}
	tests := []struct {
		filter   string
		wantRows []string
		wantGaps int
	}{
		{filter: "", wantRows: []string{"shop AP-01", "shop AP-02", "agencies AP-01"}, wantGaps: 2},
		{filter: "design:shop && AP-02", wantRows: []string{"shop AP-02"}},
		{filter: "design:shop", wantRows: []string{"shop AP-01", "shop AP-02"}, wantGaps: 1},
		{filter: "AP-01", wantRows: []string{"shop AP-01", "agencies AP-01"}, wantGaps: 2},
		{filter: designs.MainTable + " && !design:shop", wantRows: []string{"agencies AP-01"}, wantGaps: 1},
		{filter: "bench"},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			cov, err := MeasureFiltered(all, reports, tt.filter)
			if err != nil {
				t.Fatalf("MeasureFiltered(%q) error = %v", tt.filter, err)
			}
			var rows []string
			for _, r := range cov.Rows {
				rows = append(rows, r.Design+" "+string(r.Pattern.ID))
			}
			if !slices.Equal(rows, tt.wantRows) {
				t.Errorf("MeasureFiltered(%q) rows = %q, want %q", tt.filter, rows, tt.wantRows)
			}
			if got := len(cov.Gaps()); got != tt.wantGaps {
				t.Errorf("MeasureFiltered(%q).Gaps() = %q, want %d gaps", tt.filter, cov.Gaps(), tt.wantGaps)
			}
			if cov.Catalog != 3 || len(cov.Stray) != 0 {
				t.Errorf("MeasureFiltered(%q) Catalog = %d, Stray = %q; want 3 and none", tt.filter, cov.Catalog, cov.Stray)
			}
		})
	}
	if _, err := MeasureFiltered(all, reports, "design:shop &&"); err == nil {
		t.Error(`MeasureFiltered("design:shop &&") error = nil, want the filter's syntax error`)
	}
}
