package report

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// thresholds writes the run's gates near the top of summary.md, each
// ✓ or ✗ with the figure measured.
func (p *printer) thresholds(rs []threshold.Result) {
	if len(rs) == 0 {
		return
	}
	held := 0
	for _, r := range rs {
		if r.Pass {
			held++
		}
	}
	p.f("## Thresholds\n\n%d of %d held", held, len(rs))
	if held < len(rs) {
		p.f(": **breached**, bench exits 99")
	}
	p.f(".\n\n")
	var rows [][]string
	for _, r := range rs {
		note := r.Note
		if r.Retried {
			note = strings.TrimPrefix(note+"; measured again on a rerun: latencies vary from run to run", "; ")
		}
		rows = append(rows, []string{r.Mark(), code(r.Threshold), r.Text, note})
	}
	p.table("llrl", []string{"", "Threshold", "Measured", "Note"}, rows)
}

// WriteThresholds writes thresholds.xml: the run's thresholds as JUnit
// XML, a test case each, failed when breached, in the types Ginkgo's own
// JUnit reporter writes.
func WriteThresholds(w io.Writer, out bench.Outcome) error {
	suite := reporters.JUnitTestSuite{Name: out.Scenario, Package: out.Design, Tests: len(out.Thresholds),
		Time: out.Elapsed.Seconds()}
	if !out.Started.IsZero() {
		suite.Timestamp = out.Started.UTC().Format("2006-01-02T15:04:05")
	}
	for _, r := range out.Thresholds {
		tc := reporters.JUnitTestCase{Name: r.Threshold, Classname: out.Scenario, Status: "passed",
			SystemOut: "measured: " + r.Text}
		if r.Retried {
			tc.SystemOut += " (measured again on a rerun)"
		}
		if !r.Pass {
			tc.Status = "failed"
			msg := r.Threshold + " breached: measured " + r.Text
			if r.Note != "" {
				msg += " (" + r.Note + ")"
			}
			tc.Failure = &reporters.JUnitFailure{Message: msg, Type: "threshold", Description: msg}
			suite.Failures++
		}
		suite.TestCases = append(suite.TestCases, tc)
	}
	all := reporters.JUnitTestSuites{Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time,
		TestSuites: []reporters.JUnitTestSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
