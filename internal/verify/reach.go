package verify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// Unreached is a fault a pattern's calls can meet and none of its specs
// met under hostile verify: its specs call Op (a rule of the profile
// matched those calls) and Rule never fired on one of them, most often
// because an earlier fault (a read throttled past the SDK's attempts)
// ended the pattern before it called Op.
type Unreached struct {
	Design  string
	Pattern designs.Pattern
	Op      string // the operation the pattern's calls make
	Rule    string // the profile's rule for Op, which never fired on them
}

// String is the gap as verify prints it: what was missed, and the fix.
func (u Unreached) String() string {
	return fmt.Sprintf("%s %s %s: its specs call %s, and none met its fault (%s): an earlier fault ends the pattern first. "+
		"Call the pattern again after the fault, as env.Again does (checking the state each fault left), "+
		"or add a spec whose body reaches %s",
		u.Design, u.Pattern.ID, u.Pattern.Name, u.Op, u.Rule, u.Op)
}

// Reach is the hostile gate: for each pattern of rows and each operation
// its calls make for which the profile has a rule of its own (one with
// op=; a rule for any operation, like latency, is left out), at least one
// spec labelled with the pattern must have met that rule's fault. The
// operations a pattern's calls make are those a rule matched in its
// specs, and the catalog's operation for it (Pattern.Op, the main call):
// a pattern whose read is throttled in every spec never calls its write,
// which its catalog row names all the same. It reads each spec's
// RulesEntry from the suites' reports; a pattern whose specs left none (a
// quiet run, or none ran) has nothing to judge. An entry it cannot read,
// or a rule it cannot parse, is an error.
func Reach(rows []Row, reports []types.Report) ([]Unreached, error) {
	t := tally{byPattern: map[patternKey]map[string]*ruleUse{}, ops: map[string]string{}}
	for _, r := range rows {
		t.byPattern[patternKey{r.Design, string(r.Pattern.ID)}] = map[string]*ruleUse{}
	}
	for _, rep := range reports {
		design := suiteDesign(rep)
		if design == "" {
			continue
		}
		for _, spec := range rep.SpecReports {
			if err := t.add(design, spec); err != nil {
				return nil, fmt.Errorf("%s: %q: %w", rep.SuitePath, spec.FullText(), err)
			}
		}
	}
	var gaps []Unreached
	for _, r := range rows {
		var missed []Unreached
		for rule, m := range t.byPattern[patternKey{r.Design, string(r.Pattern.ID)}] {
			op := t.ops[rule]
			called := m.matched || op == string(r.Pattern.Op)
			if op != "" && called && !m.hits {
				missed = append(missed, Unreached{Design: r.Design, Pattern: r.Pattern, Op: op, Rule: rule})
			}
		}
		slices.SortFunc(missed, func(a, b Unreached) int { return cmp.Or(strings.Compare(a.Op, b.Op), strings.Compare(a.Rule, b.Rule)) })
		gaps = append(gaps, missed...)
	}
	return gaps, nil
}

// patternKey is a catalog pattern of a design.
type patternKey struct{ design, id string }

// ruleUse is what a pattern's specs did with one rule: whether a call of
// theirs matched it, and whether it fired on one.
type ruleUse struct{ matched, hits bool }

// tally gathers, per pattern, what its specs did with each rule, and each
// rule's operation ("" for any).
type tally struct {
	byPattern map[patternKey]map[string]*ruleUse
	ops       map[string]string
}

// add counts spec's RulesEntry, if it left one, for each catalog pattern
// of design its labels name.
func (t tally) add(design string, spec types.SpecReport) error {
	statuses, ok, err := rulesOf(spec)
	if err != nil || !ok {
		return err
	}
	for _, st := range statuses {
		if _, ok := t.ops[st.Rule]; !ok {
			r, err := fault.Parse(st.Rule)
			if err != nil {
				return fmt.Errorf("rule %q: %w", st.Rule, err)
			}
			t.ops[st.Rule] = r.Op
		}
	}
	for _, l := range spec.Labels() {
		rules, ok := t.byPattern[patternKey{design, l}]
		if !ok {
			continue
		}
		for _, st := range statuses {
			m := rules[st.Rule]
			if m == nil {
				m = &ruleUse{}
				rules[st.Rule] = m
			}
			m.matched = m.matched || st.Matched > 0
			m.hits = m.hits || st.Hits > 0
		}
	}
	return nil
}

// suiteDesign is the design a suite's report belongs to ("" for none):
// its design:NAME label.
func suiteDesign(rep types.Report) string {
	design := ""
	for _, l := range rep.SuiteLabels {
		if name, ok := strings.CutPrefix(l, "design:"); ok {
			design = name
		}
	}
	return design
}

// rulesOf reads spec's RulesEntry: false when it has none.
func rulesOf(spec types.SpecReport) ([]fault.RuleStatus, bool, error) {
	for _, e := range spec.ReportEntries {
		if e.Name != ddbtest.RulesEntry {
			continue
		}
		var statuses []fault.RuleStatus
		if err := json.Unmarshal([]byte(e.Value.AsJSON), &statuses); err != nil {
			return nil, false, fmt.Errorf("report entry %q is not the rules' counts: %w", ddbtest.RulesEntry, err)
		}
		return statuses, true, nil
	}
	return nil, false, nil
}
