package rules

import (
	"math"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// The rules table gives each rule the basis its source supports: a page
// where AWS states it, a public measurement where only that shows it, and
// inferred where the record is silent or AWS's pages disagree.
func TestRulesRestOnTheirSources(t *testing.T) {
	for _, c := range []struct{ name, basis, source string }{
		{"index writes inside a transaction are not doubled", BasisMeasured, "github.com/nubo-db/dynoxide/pull/188"},
		{"write unit; double transactional", BasisDocumented, "read-write-operations.html"},
		{"partitions of a provisioned table", BasisDocumented, "GuidelinesForTables.md"},
		{"partitions of an on-demand table or GSI", BasisInferred, "on-demand-capacity-mode.html"},
		{"or a linear combination of the two", BasisDocumented, "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"a partition's reads and writes throttled apart", BasisInferred, "bp-partition-key-design.html"},
		{"answers RequestLimitExceeded with reason …AccountLimitExceeded", BasisDocumented, "Programming.Errors.html"},
		{"ThrottlingException on an on-demand one", BasisDocumented, "Programming.Errors.html"},
		{"refused by its warm throughput or growth", BasisInferred, "API_ThrottlingReason.html"},
		{"answers ThrottlingException with reason …MaxOnDemandThroughputExceeded", BasisDocumented, "Programming.Errors.html"},
		{"at least 1 unit per second, below the table quota", BasisDocumented, "on-demand-capacity-mode-max-throughput.html"},
		{"with no burst past it", BasisInferred, "on-demand-capacity-mode-max-throughput.html"},
		{"its previous peak is half the most it was provisioned with", BasisDocumented, "HowItWorks.ReadWriteCapacityMode.md"},
		{"keeps the partitions it had", BasisDocumented, "part-3-scaling-dynamodb"},
		{"one key's eventually consistent reads served", BasisMeasured, "part-2-scaling-dynamodb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := false
			for _, l := range All() {
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

// Every parameter the model assumes is a row of the rules table, marked
// inferred, with the value the code applies and the page that is silent
// on it (or none): the figures that rest on them cite these rows.
func TestInferredParametersAreRules(t *testing.T) {
	for _, c := range []struct {
		id     string
		value  float64
		source string
	}{
		{"bucket-depth", 1, "bp-partition-key-design.html"},
		{"split-for-heat", throughput.DefaultIsolateAfter.Seconds(), "burst-adaptive-capacity.html#isolate-frequent-access-items"},
		{"partitions-on-demand", 4, "on-demand-capacity-mode.html"},
		{"light-keys", 0, "HowItWorks.Partitions.html"},
		{"hot-keys", DefaultTopN, ""},
		{"provisioned-utilisation", 70, "AutoScaling.html"},
		{"growth-extrapolation", 0, ""},
		{"growth-window", ddbitem.GrowSeconds, "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"placement", 0, "HowItWorks.Partitions.html"},
		{"warm-gsi", 0, "check-warm-throughput.html"},
	} {
		l, ok := ruleIndex()[c.id]
		if !ok {
			t.Errorf("no rule %q", c.id)
			continue
		}
		if l.Basis != BasisInferred || math.Abs(l.Value-c.value) > 1e-9*math.Max(1, c.value) || !strings.Contains(l.Source, c.source) || c.source == "" && l.Source != "" {
			t.Errorf("rule %s = %+v, want inferred, value %g, source %q", c.id, l, c.value, c.source)
		}
	}
	if p := ruleIndex()["placement"].Name; !strings.Contains(p, "SplitMix64") || strings.Contains(p, "salted") {
		t.Errorf("placement rule %q, want the seed mixed through SplitMix64's finalizer, as throughput.Placement does", p)
	}
	ids := map[string]bool{}
	for _, l := range All() {
		if l.ID == "" || ids[l.ID] {
			t.Errorf("rule %q: id %q missing or taken twice", l.Name, l.ID)
		}
		ids[l.ID] = true
	}
}
