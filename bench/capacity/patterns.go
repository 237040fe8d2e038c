package capacity

import (
	"cmp"
	"slices"

	"github.com/ddbharness/ddbharness/bench/ledger"
)

// patterns lists the per-pattern usage and Local's disagreements, in
// pattern order.
func (r *run) patterns() ([]ledger.PatternUsage, []ledger.Disagreement) {
	var ps []ledger.PatternUsage
	for _, p := range r.l.Patterns() {
		ps = append(ps, *p)
	}
	slices.SortFunc(ps, func(a, b ledger.PatternUsage) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op))
	})
	var ds []ledger.Disagreement
	for _, d := range r.l.Diffs() {
		if d.Differing > 0 {
			ds = append(ds, *d)
		}
	}
	slices.SortFunc(ds, func(a, b ledger.Disagreement) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op), ledger.ByTarget(a.Target, b.Target))
	})
	return ps, ds
}
