package verify

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/internal/userfile"
)

// MergeReports joins Ginkgo JSON reports (each a list of suite reports)
// into one, written to dst, and returns it.
func MergeReports(dst string, srcs ...string) ([]types.Report, error) {
	var all []types.Report
	for _, src := range srcs {
		rs, err := ReadReports(src)
		if err != nil {
			return nil, err
		}
		all = append(all, rs...)
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("merge ginkgo reports: %w", err)
	}
	return all, userfile.Write(dst, b, 0o644)
}

// MergeJUnit joins JUnit reports into one, written to dst, with the totals
// summed.
func MergeJUnit(dst string, srcs ...string) error {
	var all reporters.JUnitTestSuites
	for _, src := range srcs {
		b, err := userfile.ReadRegular(src, MaxReportBytes)
		if err != nil {
			return fmt.Errorf("read junit report: %w", err)
		}
		var s reporters.JUnitTestSuites
		if err := xml.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("read junit report %s: %w", src, err)
		}
		all.Tests += s.Tests
		all.Disabled += s.Disabled
		all.Errors += s.Errors
		all.Failures += s.Failures
		all.Time += s.Time
		all.TestSuites = append(all.TestSuites, s.TestSuites...)
	}
	b, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return fmt.Errorf("merge junit reports: %w", err)
	}
	return userfile.Write(dst, append([]byte(xml.Header), b...), 0o644)
}
