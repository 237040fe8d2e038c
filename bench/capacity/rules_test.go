package capacity

import (
	"strings"
	"testing"
)

// The rules table gives each rule the basis its source supports: a page
// where AWS states it, a public measurement where only that shows it, and
// inferred where the record is silent or AWS's pages disagree.
func TestRulesRestOnTheirSources(t *testing.T) {
	for _, c := range []struct{ name, basis, source string }{
		{"index writes inside a transaction are not doubled", basisMeasured, "github.com/nubo-db/dynoxide/pull/188"},
		{"write unit; double transactional", basisDocumented, "read-write-operations.html"},
		{"partitions of a provisioned table", basisDocumented, "GuidelinesForTables.md"},
		{"partitions of an on-demand table or GSI", basisInferred, "on-demand-capacity-mode.html"},
		{"or a linear combination of the two", basisDocumented, "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"a partition's reads and writes throttled apart", basisInferred, "bp-partition-key-design.html"},
		{"answers RequestLimitExceeded with reason …AccountLimitExceeded", basisDocumented, "Programming.Errors.html"},
		{"ThrottlingException on an on-demand one", basisDocumented, "Programming.Errors.html"},
		{"refused by its warm throughput or growth", basisInferred, "API_ThrottlingReason.html"},
		{"answers ThrottlingException with reason …MaxOnDemandThroughputExceeded", basisDocumented, "Programming.Errors.html"},
		{"at least 1 unit per second, below the table quota", basisDocumented, "on-demand-capacity-mode-max-throughput.html"},
		{"with no burst past it", basisInferred, "on-demand-capacity-mode-max-throughput.html"},
		{"its previous peak is half the most it was provisioned with", basisDocumented, "HowItWorks.ReadWriteCapacityMode.md"},
		{"keeps the partitions it had", basisDocumented, "part-3-scaling-dynamodb"},
		{"one key's eventually consistent reads served", basisMeasured, "part-2-scaling-dynamodb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := false
			for _, l := range rules() {
				if !strings.Contains(l.Name, c.name) {
					continue
				}
				found = true
				if l.Basis != c.basis || !strings.Contains(l.Source, c.source) {
					t.Errorf("rule %q: basis %q, source %q; want %q from %s", l.Name, l.Basis, l.Source, c.basis, c.source)
				}
			}
			if !found {
				t.Errorf("no rule names %q", c.name)
			}
		})
	}
}
