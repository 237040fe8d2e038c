package verify

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/failure"
)

// The verdict fails a run on any one of its causes, and refuses a label
// filter that selected no spec as bad input, with an example to follow.
func TestVerdict(t *testing.T) {
	sc, err := newScope([]string{"shop"})
	if err != nil {
		t.Fatal(err)
	}
	passed := Coverage{Totals: Cell{Passed: 3}}
	for _, c := range []struct {
		name   string
		filter string
		r      outcome
		want   error
	}{
		{"all passed", "", outcome{cov: passed}, nil},
		{"a suite crashed", "", outcome{cov: passed, crashed: 1}, failure.ErrReported},
		{"specs failed", "", outcome{cov: passed, runErr: errors.New("exit 1")}, failure.ErrReported},
		{"a unit test failed", "", outcome{cov: passed, units: unitTotals{failed: 1}}, failure.ErrReported},
		{"a pattern without a spec", "", outcome{cov: passed, gaps: []string{"shop AP-01"}}, failure.ErrReported},
		{"a fault no spec of a pattern met", "", outcome{cov: Coverage{Totals: passed.Totals, Unreached: []Unreached{{Design: "shop", Op: "UpdateItem"}}}}, failure.ErrReported},
	} {
		if got := verdict(sc, c.filter, c.r); !errors.Is(got, c.want) {
			t.Errorf("%s: verdict = %v, want %v", c.name, got, c.want)
		}
	}
	err = verdict(sc, "AP-99", outcome{})
	var bad failure.BadInput
	if !errors.As(err, &bad) || !strings.Contains(bad.Msg, `"AP-99"`) || !strings.Contains(bad.Msg, "--label-filter=") {
		t.Errorf("a filter that selected nothing: verdict = %v, want bad input naming the filter and an example", err)
	}
}

// A suite that failed with no failed spec is said to have failed after its
// specs, where ginkgo's parallel run hides the output: an Example's.
func TestFailedBecauseNamesExamples(t *testing.T) {
	ginkgoFailed := errors.New("exit 1")
	after := failedBecause(scope{}, "", outcome{cov: Coverage{Totals: Cell{Passed: 3}}, runErr: ginkgoFailed}, false)
	if !strings.Contains(after, "an Example") || !strings.Contains(after, "go test -run Example") {
		t.Errorf("no spec failed: %q, want it to name an Example and how to see its output", after)
	}
	if got := failedBecause(scope{}, "", outcome{cov: Coverage{Totals: Cell{Passed: 2, Failed: 1}}, runErr: ginkgoFailed}, false); got != "specs failed (details above)" {
		t.Errorf("a spec failed: %q, want the specs said to have failed", got)
	}
}

// A hostile run's unreached faults are its failure's cause and counted in
// its summary line; a quiet run has none and its line is as it was.
func TestUnreachedInVerdict(t *testing.T) {
	cov := Coverage{Totals: Cell{Passed: 3}, Unreached: []Unreached{{Design: "shop", Op: "UpdateItem"}, {Design: "shop", Op: "GetItem"}}}
	if got := failedBecause(scope{}, "", outcome{cov: cov}, false); !strings.Contains(got, "2 fault(s)") || !strings.Contains(got, "gap: hostile:") {
		t.Errorf("failedBecause = %q, want the unreached faults counted and where they are listed", got)
	}
	if got := summaryLine(scope{}, "", cov, 0, unitTotals{}); got != "verify: 3 passed, 0 failed, 2 fault(s) no spec of the pattern met" {
		t.Errorf("summaryLine = %q", got)
	}
	var b strings.Builder
	if err := cov.WriteMarkdown(&b, "http://127.0.0.1:8000"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "## Faults no spec of the pattern met") || !strings.Contains(b.String(), "env.Again") {
		t.Errorf("summary.md does not list the unreached faults:\n%s", b.String())
	}
}

// The summary line says why specs were skipped.
func TestSummaryLineSaysWhySkipped(t *testing.T) {
	cov := Coverage{Totals: Cell{Passed: 2, Failed: 1, Skipped: 4}}
	got := summaryLine(scope{}, "AP-03", cov, 1, unitTotals{passed: 5})
	if want := "verify: 7 passed, 1 failed, 1 suite(s) crashed, 4 skipped (outside the filter)"; got != want {
		t.Errorf("summaryLine = %q, want %q", got, want)
	}
	if got := summaryLine(scope{named: true}, "", cov, 0, unitTotals{}); !strings.HasSuffix(got, "4 skipped (other designs')") {
		t.Errorf("a narrowed run's summary = %q, want the skipped specs said to be other designs'", got)
	}
}
