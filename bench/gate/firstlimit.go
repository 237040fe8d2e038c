package gate

import (
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/report"
)

// FirstLimitMove is report compare's first line: the first limit of base
// and of next, before → after, each its kind, where, rate and cause.
func FirstLimitMove(base, next Run) string {
	return "first limit: " + firstLimitOf(base) + " → " + firstLimitOf(next)
}

// firstLimitOf is r's first limit in one phrase. A metrics.json written
// before first limits were recorded has its first throttle (the ceiling)
// only, and one written before reasons were has no side or reason: the
// phrase says which is missing rather than leaving it out silently.
func firstLimitOf(r Run) string {
	c := r.Out.Capacity
	l := c.FirstLimit
	older := ""
	if l == nil && c.Ceiling != nil {
		kind := capacity.LimitBudget
		if c.Ceiling.Key != "" {
			kind = capacity.LimitPartition
		}
		l = &capacity.Limit{Kind: kind, Target: c.Ceiling.Target, Key: c.Ceiling.Key, Rate: c.Ceiling.Rate,
			Side: c.Ceiling.Side, Reason: c.Ceiling.Reason, BackPressure: c.Ceiling.BackPressure}
		older = " [its first throttle: " + r.Dir + "'s metrics.json records no first limit]"
	}
	if l == nil {
		return "none reached"
	}
	if l.Reason == "" {
		older += " [no reason: " + r.Dir + "'s metrics.json was written before limits named theirs]"
	}
	return report.LimitBrief(*l) + older
}
