package report

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/ddbharness/ddbharness/workload/threshold"
)

// TestThresholdsReported: a run's thresholds open summary.md's findings,
// ✓ or ✗ with the figure measured, and thresholds.xml has a JUnit test
// case each, the breached one failed.
func TestThresholdsReported(t *testing.T) {
	out := sample()
	out.Thresholds = []threshold.Result{
		{Threshold: "p99(AP-03) < 20ms", Pass: true, Text: "7ms"},
		{Threshold: "wcu(AP-06) <= 1", Text: "2", Retried: true},
	}
	dir, err := Write(t.TempDir(), out)
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
	s := string(sum)
	section := strings.Index(s, "## Thresholds")
	if section < 0 || section > strings.Index(s, "## Findings") {
		t.Fatalf("summary.md has no Thresholds section before its findings:\n%s", s)
	}
	for _, want := range []string{"1 of 2 held: **breached**, bench exits 99", "| ✓ | `p99(AP-03) < 20ms` | 7ms |", "| ✗ | `wcu(AP-06) <= 1` | 2 | measured again on a rerun"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, ThresholdsFile))
	if err != nil {
		t.Fatal(err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(raw, &suites); err != nil {
		t.Fatal(err)
	}
	cases := suites.TestSuites[0].TestCases
	if suites.Tests != 2 || suites.Failures != 1 || len(cases) != 2 || cases[0].Failure != nil ||
		cases[1].Failure == nil || !strings.Contains(cases[1].Failure.Message, "wcu(AP-06) <= 1 breached: measured 2") {
		t.Errorf("thresholds.xml: %s", raw)
	}
}

// TestNoThresholdsNoFile: a run without thresholds writes no
// thresholds.xml and no section.
func TestNoThresholdsNoFile(t *testing.T) {
	dir, err := Write(t.TempDir(), sample())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ThresholdsFile)); !os.IsNotExist(err) {
		t.Errorf("thresholds.xml written without thresholds (%v)", err)
	}
}
