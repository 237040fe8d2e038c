package verify

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// Cell counts the specs of one pattern by outcome.
type Cell struct {
	Passed, Failed, Skipped int
}

// Row is one catalog pattern and what its specs did.
type Row struct {
	Design  string
	Pattern designs.Pattern
	Cell
}

// Coverage is the design × pattern table of one run.
type Coverage struct {
	Rows []Row
	// Stray lists pattern-like labels no catalog knows ("design:shop AP-99"):
	// most likely a typo that leaves the real pattern uncovered.
	Stray []string
	// NotRun lists suites that ran no spec, with Ginkgo's reason (a build
	// failure, an interrupt), since their patterns' gaps have that cause.
	NotRun []string
	// Crashed names the designs whose suite crashed before it reported:
	// their patterns' gaps have that cause, not a missing spec.
	Crashed []string
	// Totals counts every spec of the run, labelled or not.
	Totals Cell
	// Filter is the run's label filter ("" for none); Rows hold only the
	// patterns it selects, of Catalog in all.
	Filter  string
	Catalog int
	// Designs names the designs a run was narrowed to (make verify
	// DESIGN=...; none for every design): the caller measured those only,
	// so Catalog counts their patterns alone.
	Designs []string
	// Unreached lists, under hostile verify, the faults a pattern's calls
	// can meet and none of its specs met (Reach); none on a quiet run.
	Unreached []Unreached
}

// patternLike matches labels that name a pattern ID.
var patternLike = regexp.MustCompile(`^[A-Z][A-Z0-9]*-\d+$`)

// MaxReportBytes bounds a Ginkgo report read (ReadReports, MergeJUnit):
// the whole repository's run writes a few megabytes.
const MaxReportBytes = 256 << 20

// ReadReports reads a Ginkgo --json-report file: a regular file of at
// most MaxReportBytes (userfile.ReadRegular), so that a named pipe or an
// endless file is refused instead of read for ever.
func ReadReports(path string) ([]types.Report, error) {
	b, err := userfile.ReadRegular(path, MaxReportBytes)
	if err != nil {
		return nil, fmt.Errorf("read ginkgo report: %w", err)
	}
	return ParseReports(path, b)
}

// ParseReports reads b, the Ginkgo --json-report file at path, read
// already (ddbharness coverage reads it with userfile.Read).
func ParseReports(path string, b []byte) ([]types.Report, error) {
	var reports []types.Report
	if err := json.Unmarshal(b, &reports); err != nil {
		return nil, fmt.Errorf("read ginkgo report %s: %w", path, err)
	}
	return reports, nil
}

// Measure fills the table: a spec counts for a pattern when its suite
// carries the design's label and the spec (or a container) the pattern ID.
func Measure(all []designs.Design, reports []types.Report) Coverage {
	cov, _ := MeasureFiltered(all, reports, "")
	return cov
}

// MeasureFiltered is Measure for a run under a Ginkgo label filter: the
// table, and so the gate, holds only the patterns whose specs the filter
// selects, judged on the labels ddbtest.Setup gives them (the design's
// label, the pattern ID, its index). A filter Ginkgo cannot parse is an
// error.
func MeasureFiltered(all []designs.Design, reports []types.Report, filter string) (Coverage, error) {
	selects, err := types.ParseLabelFilter(filter)
	if err != nil {
		return Coverage{}, fmt.Errorf("label filter %q: %w", filter, err)
	}
	type key struct{ design, id string }
	cells := map[key]*Cell{}
	cov := Coverage{Filter: filter}
	for _, d := range all {
		for _, p := range d.Patterns {
			cov.Catalog++
			if selects([]string{d.Label(), string(p.ID), p.Index}) {
				cov.Rows = append(cov.Rows, Row{Design: d.Name, Pattern: p})
			}
		}
	}
	for i := range cov.Rows {
		r := &cov.Rows[i]
		cells[key{r.Design, string(r.Pattern.ID)}] = &r.Cell
	}
	stray := map[string]bool{}
	known := map[key]bool{} // every catalog pattern, selected or not: none is stray
	for _, d := range all {
		for _, p := range d.Patterns {
			known[key{d.Name, string(p.ID)}] = true
		}
	}
	for _, rep := range reports {
		if len(rep.SpecReports) == 0 && len(rep.SpecialSuiteFailureReasons) > 0 {
			cov.NotRun = append(cov.NotRun, rep.SuitePath+": "+strings.Join(rep.SpecialSuiteFailureReasons, "; "))
		}
		design := suiteDesign(rep)
		for _, spec := range rep.SpecReports {
			if spec.LeafNodeType != types.NodeTypeIt {
				continue
			}
			count(&cov.Totals, spec.State)
			if design == "" {
				continue
			}
			for _, l := range spec.Labels() {
				if c, ok := cells[key{design, l}]; ok {
					count(c, spec.State)
				} else if patternLike.MatchString(l) && !known[key{design, l}] {
					stray["design:"+design+" "+l] = true
				}
			}
		}
	}
	for s := range stray {
		cov.Stray = append(cov.Stray, s)
	}
	slices.Sort(cov.Stray)
	return cov, nil
}

func count(c *Cell, s types.SpecState) {
	switch {
	case s == types.SpecStatePassed:
		c.Passed++
	case s.Is(types.SpecStateFailureStates):
		c.Failed++
	default: // skipped, pending
		c.Skipped++
	}
}

// Gaps lists the patterns that no passing spec proves, and why.
func (c Coverage) Gaps() []string {
	var gaps []string
	for _, r := range c.Rows {
		switch {
		case r.Failed > 0:
			gaps = append(gaps, fmt.Sprintf("%s %s %s: %d spec(s) failed", r.Design, r.Pattern.ID, r.Pattern.Name, r.Failed))
		case r.Passed == 0 && r.Skipped > 0:
			gaps = append(gaps, fmt.Sprintf("%s %s %s: its specs were skipped, none ran", r.Design, r.Pattern.ID, r.Pattern.Name))
		case r.Passed == 0 && slices.Contains(c.Crashed, r.Design):
			gaps = append(gaps, fmt.Sprintf("%s %s %s: not measured: the design's suite crashed before it reported (its output is above)", r.Design, r.Pattern.ID, r.Pattern.Name))
		case r.Passed == 0:
			gaps = append(gaps, fmt.Sprintf("%s %s %s: no spec carries Label(%q); add a Describe(%q, Label(%q, %q), ...) to its suite",
				r.Design, r.Pattern.ID, r.Pattern.Name, r.Pattern.ID, string(r.Pattern.ID)+" "+r.Pattern.Name, r.Pattern.ID, r.Pattern.Index))
		}
	}
	return gaps
}
