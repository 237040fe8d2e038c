package report

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
)

// LimitLabel names a limit in a few words, as the headline and report
// compare show it: its kind and where, "partition GSI1 key X", "budget
// table", "item limit on item K / S", "conflict limit on item K / S".
func LimitLabel(kind, target, key, item string) string {
	switch kind {
	case capacity.LimitConflict, capacity.LimitItem:
		return kind + " limit on item " + item
	case capacity.LimitPartition:
		return fmt.Sprintf("partition %s key %s", targetName(target), key)
	}
	return kind + " " + targetName(target)
}

// causeText is what a limit's refusals are, in parentheses, with detail
// after them: the side that binds, the reason DynamoDB gives there, and
// back-pressure when a GSI's writes throttle the table's writes that
// feed it.
func causeText(side, reason string, backPressure bool, detail string) string {
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
	text := strings.Join(parts, ", ")
	switch {
	case text == "" && detail == "":
		return ""
	case text == "":
		text = detail
	case detail != "":
		text += "; " + detail
	}
	return " (" + text + ")"
}

// firstLimitText is the headline's first limit, of every kind: where, the
// pattern that drives it, the rate, its side, DynamoDB's reason and
// back-pressure, what it rests on, the limits tied with it and what to
// change. The first throttle, a partition's or a budget's, follows it.
func firstLimitText(l *capacity.Limit) string {
	if l == nil {
		return ""
	}
	what := LimitLabel(l.Kind, l.Target, l.Key, l.Item)
	if l.Spread() {
		what += fmt.Sprintf(", spread: %s carries %.0f%% of its partition's load", l.Key, 100*l.KeyShare)
	}
	if l.Pattern != "" {
		what += ", driven by " + string(l.Pattern)
	}
	detail := ""
	switch l.Kind {
	case capacity.LimitConflict:
		detail = fmt.Sprintf("one transaction at a time, each holding it about %.1f ms", 1000*l.HoldSeconds)
	case capacity.LimitItem:
		detail = l.Limit
	}
	what += fmt.Sprintf(", at %s requests/s%s%s", rateText(l.Rate), causeText(l.Side, l.Reason, l.BackPressure, detail), mark(l.Source))
	if len(l.Tied) > 0 {
		var tied []string
		for _, t := range l.Tied {
			tied = append(tied, fmt.Sprintf("%s at %s requests/s%s", LimitLabel(t.Kind, t.Target, t.Key, t.Item), rateText(t.Rate), causeText(t.Side, t.Reason, false, "")))
		}
		what += fmt.Sprintf("; tied within %.0f%% with %s%s", 100*rules.TieShare, strings.Join(tied, ", "), mark(rules.Cite("limit-tie")))
	}
	return fmt.Sprintf("; first limit: %s: %s", what, l.Change)
}

// LimitBrief is a limit in one phrase, as report compare shows it moving:
// where, the rate of the mix that reaches it, and its cause,
// "partition GSI1 key X at 120 requests/s (writes, IndexWriteKeyRangeThroughputExceeded)".
func LimitBrief(l capacity.Limit) string {
	return fmt.Sprintf("%s at %s requests/s%s", LimitLabel(l.Kind, l.Target, l.Key, l.Item), rateText(l.Rate), causeText(l.Side, l.Reason, l.BackPressure, ""))
}
