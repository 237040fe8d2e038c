package report

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity"
)

// LimitLabel names a limit in a few words, as the headline and report
// compare show it: its kind and where, "partition GSI1 key X", "budget
// table", "item K / S", "conflict on item K / S".
func LimitLabel(kind, target, key, item string) string {
	switch kind {
	case capacity.LimitConflict:
		return "conflict on item " + item
	case capacity.LimitItem:
		return "item " + item
	case capacity.LimitPartition:
		return fmt.Sprintf("partition %s key %s", targetName(target), key)
	}
	return kind + " " + targetName(target)
}

// causeText is what a limit's refusals are, in parentheses: the side
// that binds, the reason DynamoDB gives there, and back-pressure when a
// GSI's writes throttle the table's writes that feed it.
func causeText(side, reason string, backPressure bool) string {
	var parts []string
	if side != "" {
		parts = append(parts, side+"s")
	}
	if reason != "" {
		parts = append(parts, reason)
	}
	if backPressure {
		parts = append(parts, "back-pressure: it throttles the table's writes too")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// firstLimitText is the headline's first limit, of every kind: where,
// its side, DynamoDB's reason and back-pressure, the pattern that drives
// it, the rate, what it rests on, the limits tied with it and what to
// change. The first throttle, a partition's or a budget's, follows it.
func firstLimitText(l *capacity.Limit) string {
	if l == nil {
		return ""
	}
	what := LimitLabel(l.Kind, l.Target, l.Key, l.Item) + causeText(l.Side, l.Reason, l.BackPressure)
	if l.Spread() {
		what += fmt.Sprintf(", spread: %s carries %s of its partition's load", l.Key, fmt.Sprintf("%.0f%%", 100*l.KeyShare))
	}
	if l.Pattern != "" {
		what += ", driven by " + string(l.Pattern)
	}
	what += fmt.Sprintf(", at %s requests/s", rateText(l.Rate))
	switch l.Kind {
	case capacity.LimitConflict:
		what += fmt.Sprintf(" (one transaction at a time, each holding it about %.1f ms)", 1000*l.HoldSeconds)
	case capacity.LimitItem:
		what += fmt.Sprintf(" (%s)", l.Limit)
	}
	what += mark(l.Source)
	if len(l.Tied) > 0 {
		var tied []string
		for _, t := range l.Tied {
			tied = append(tied, fmt.Sprintf("%s%s at %s requests/s", LimitLabel(t.Kind, t.Target, t.Key, t.Item), causeText(t.Side, t.Reason, false), rateText(t.Rate)))
		}
		what += fmt.Sprintf("; tied within %s with %s%s", fmt.Sprintf("%.0f%%", 100*capacity.TieShare), strings.Join(tied, ", "), mark(capacity.Cite("limit-tie")))
	}
	return fmt.Sprintf("; first limit: %s: %s", what, l.Change)
}

// LimitBrief is a limit in one phrase, as report compare shows it moving:
// where, the rate of the mix that reaches it, and its cause,
// "partition GSI1 key X at 120 requests/s (writes, IndexWriteKeyRangeThroughputExceeded)".
func LimitBrief(l capacity.Limit) string {
	return fmt.Sprintf("%s at %s requests/s%s", LimitLabel(l.Kind, l.Target, l.Key, l.Item), rateText(l.Rate), causeText(l.Side, l.Reason, l.BackPressure))
}
