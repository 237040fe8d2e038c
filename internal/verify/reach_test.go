package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

const (
	getRule    = "op=GetItem first=3 error=ThrottlingException"
	updateRule = "op=UpdateItem first=1 error=ServiceUnavailable"
	queryRule  = "op=Query first=1 error=ProvisionedThroughputExceededException"
	waitRule   = "every=4 latency=2ms"
)

// met is a spec of the shop's suite labelled with labels whose body left
// statuses, as its JSON report keeps them.
func met(t *testing.T, labels []string, statuses ...fault.RuleStatus) types.SpecReport {
	t.Helper()
	s := spec(types.SpecStatePassed, labels)
	b, err := json.Marshal(types.WrapEntryValue(statuses))
	if err != nil {
		t.Fatal(err)
	}
	var v types.ReportEntryValue
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	s.ReportEntries = types.ReportEntries{{Name: ddbtest.RulesEntry, Value: v}}
	return s
}

func shopRows() []Row {
	return []Row{{Design: "shop", Pattern: shop.Patterns[0]}, {Design: "shop", Pattern: shop.Patterns[1]}}
}

func TestReach(t *testing.T) {
	throttledRead := []fault.RuleStatus{{Rule: getRule, Matched: 3, Hits: 3}, {Rule: updateRule}, {Rule: queryRule}, {Rule: waitRule, Matched: 3, Hits: 0}}
	readThenWrite := []fault.RuleStatus{{Rule: getRule, Matched: 1}, {Rule: updateRule, Matched: 1}, {Rule: waitRule, Matched: 2}}
	bothMet := []fault.RuleStatus{{Rule: getRule, Matched: 4, Hits: 3}, {Rule: updateRule, Matched: 2, Hits: 1}}
	tests := []struct {
		name  string
		specs []types.SpecReport
		want  []string // "pattern op" of each gap
	}{
		{
			name:  "the read's throttle ends every spec: the write is never called, nothing to judge",
			specs: []types.SpecReport{met(t, []string{"AP-01"}, throttledRead...)},
		},
		{
			name:  "the catalog's operation counts as called though no spec reached it",
			specs: []types.SpecReport{met(t, []string{"AP-02"}, throttledRead...)},
			want:  []string{"AP-02 Query"},
		},
		{
			name: "one spec calls the write past a quiet read, none meets its fault: a gap",
			specs: []types.SpecReport{
				met(t, []string{"AP-01"}, throttledRead...),
				met(t, []string{"AP-01"}, readThenWrite...),
			},
			want: []string{"AP-01 UpdateItem"},
		},
		{
			name: "a spec that meets both faults closes both",
			specs: []types.SpecReport{
				met(t, []string{"AP-01"}, readThenWrite...),
				met(t, []string{"AP-01"}, bothMet...),
			},
		},
		{
			name:  "the latency rule, for any operation, is no gap; another pattern's spec does not count",
			specs: []types.SpecReport{met(t, []string{"AP-02"}, bothMet...), met(t, []string{"AP-01"}, readThenWrite...)},
			want:  []string{"AP-01 GetItem", "AP-01 UpdateItem"},
		},
		{
			name:  "a spec without the entry (a quiet run) is left out",
			specs: []types.SpecReport{spec(types.SpecStatePassed, []string{"AP-01"})},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reports := []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: tt.specs}}
			gaps, err := Reach(shopRows(), reports)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range gaps {
				got = append(got, string(g.Pattern.ID)+" "+g.Op)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("gaps %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReachOtherDesign: a spec of another design's suite, labelled with
// the same pattern ID, closes nothing of the shop's.
func TestReachOtherDesign(t *testing.T) {
	reports := []types.Report{
		{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{
			met(t, []string{"AP-01"}, fault.RuleStatus{Rule: updateRule, Matched: 1}),
		}},
		{SuiteLabels: []string{"design:agencies"}, SpecReports: types.SpecReports{
			met(t, []string{"AP-01"}, fault.RuleStatus{Rule: updateRule, Matched: 1, Hits: 1}),
		}},
	}
	gaps, err := Reach(shopRows(), reports)
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || gaps[0].Op != "UpdateItem" || gaps[0].Rule != updateRule {
		t.Fatalf("gaps %+v, want the shop's AP-01 UpdateItem", gaps)
	}
	line := gaps[0].String()
	for _, want := range []string{"shop AP-01 get user", "UpdateItem", updateRule, "env.Again"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q does not name %q", line, want)
		}
	}
}

// TestReachBadEntry: an entry that is not the rules' counts, or a rule
// the fault rules do not read, is an error naming the spec, not a pass.
func TestReachBadEntry(t *testing.T) {
	bad := spec(types.SpecStatePassed, []string{"AP-01"})
	bad.LeafNodeText = "reads"
	bad.ReportEntries = types.ReportEntries{{Name: ddbtest.RulesEntry, Value: types.ReportEntryValue{AsJSON: `"three"`}}}
	unread := met(t, []string{"AP-01"}, fault.RuleStatus{Rule: "op=Nothing first=1", Matched: 1})
	for _, s := range []types.SpecReport{bad, unread} {
		_, err := Reach(shopRows(), []types.Report{{SuiteLabels: []string{"design:shop"}, SpecReports: types.SpecReports{s}}})
		if err == nil {
			t.Errorf("%+v: no error", s.ReportEntries)
		}
	}
}
