package rules

import (
	"slices"
	"strings"
	"sync"
)

// Source is what a figure of the report rests on: Rules, the ids of the
// rows of the rules table it applies (Report.Rules, summary.md's "Rules
// and limits used"), and Basis, the weakest of theirs: "documented" when
// AWS's pages state every one, "measured" when the weakest is a public
// measurement of real DynamoDB, "inferred" when any is the model's own
// assumption. A figure the run measured itself (units charged by AWS's
// rules, counts, rates) has none.
type Source struct {
	Basis string   `json:"basis"`
	Rules []string `json:"rules"`
}

// ruleIndex is the rules table by id.
var ruleIndex = sync.OnceValue(func() map[string]Rule {
	m := map[string]Rule{}
	for _, l := range All() {
		m[l.ID] = l
	}
	return m
})

// Has reports whether the rules table has a row id: the findings check
// that each figure they cite rests on one.
func Has(id string) bool {
	_, ok := ruleIndex()[id]
	return ok
}

// strength orders the bases, weakest first; an id the table lacks has
// none and counts as inferred, so that no figure claims more than the
// table shows.
var strength = map[string]int{BasisInferred: 0, BasisMeasured: 1, BasisDocumented: 2}

// Cite is the Source of a figure that applies the rules ids names.
func Cite(ids ...string) *Source {
	s := &Source{Basis: BasisDocumented, Rules: ids}
	for _, id := range ids {
		if b := ruleIndex()[id].Basis; strength[b] < strength[s.Basis] {
			s.Basis = b
		}
	}
	if s.Basis == "" {
		s.Basis = BasisInferred
	}
	return s
}

// Documented reports whether AWS's pages state every rule the figure
// applies: only such a figure is said to be real DynamoDB's.
func (s *Source) Documented() bool { return s != nil && s.Basis == BasisDocumented }

// Mark is how a figure's source reads where the figure appears: its basis
// and the rules that set it, "[inferred: placement, light-keys]" (the
// rows of the rules table; the others it applies are stronger), or ""
// for none.
func (s *Source) Mark() string {
	if s == nil || len(s.Rules) == 0 {
		return ""
	}
	var ids []string
	for _, id := range s.Rules {
		if b := ruleIndex()[id].Basis; (b == s.Basis || b == "" && s.Basis == BasisInferred) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return "[" + s.Basis + ": " + strings.Join(ids, ", ") + "]"
}

// Merged is one Source for figures given together: every rule of each,
// once.
func Merged(ss ...*Source) *Source {
	var ids []string
	for _, s := range ss {
		for _, id := range s.rules() {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return Cite(ids...)
}

func (s *Source) rules() []string {
	if s == nil {
		return nil
	}
	return s.Rules
}
