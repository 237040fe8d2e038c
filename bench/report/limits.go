package report

import (
	"fmt"

	"github.com/ddbharness/ddbharness/bench/capacity"
)

// firstLimitText is the headline's first limit when it is an item's (its
// transactions serialise, or its own throughput), which the first
// throttle, a partition's or a budget's, comes after: its kind, the item,
// the pattern that drives it, the rate, what it rests on and what to
// change.
func firstLimitText(l *capacity.Limit) string {
	if l == nil || l.Kind != capacity.LimitConflict && l.Kind != capacity.LimitItem {
		return ""
	}
	what := fmt.Sprintf("%s limit on item %s, driven by %s, at %s requests/s", l.Kind, l.Item, l.Pattern, rateText(l.Rate))
	if l.Kind == capacity.LimitConflict {
		what += fmt.Sprintf(" (one transaction at a time, each holding it about %.1f ms)", 1000*l.HoldSeconds)
	} else {
		what += fmt.Sprintf(" (%s)", l.Limit)
	}
	return fmt.Sprintf("; first limit: %s%s: %s", what, mark(l.Source), l.Change)
}
