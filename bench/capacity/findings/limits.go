package findings

import (
	"fmt"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// firstLimitFinding says what stops the design first, of every kind of
// limit: what it is, where, the pattern that drives it, the rate of the
// mix that reaches it, and what to change.
func firstLimitFinding(r capacity.Report) *claim {
	if len(r.LimitsInOrder) == 0 {
		return nil
	}
	l := r.LimitsInOrder[0]
	c := new(claim).say("What stops this design first is %s", name(limitWhat(l)))
	switch l.Kind {
	case capacity.LimitConflict:
		c.say(": the transactions that write it run one at a time, each %s call holding it about %s", name(l.Pattern), cited(l.Source, millis(l.HoldSeconds)))
		if l.HoldDeclared {
			c.say(" as the scenario declares")
		} else {
			c.say(" on DynamoDB")
		}
		if l.TestBedHoldSeconds > 0 {
			c.say(" (its calls took %s on the test bed, a measurement of the test bed, not used)", ran(millis(l.TestBedHoldSeconds)))
		}
		c.say(", so it takes about %s of them a second", cited(l.Source, figure.Units(l.PatternRate)))
	case capacity.LimitItem:
		c.say(": %s takes %s WCU of it a call, and one item never passes %s whatever adaptive capacity does",
			name(l.Pattern), ran(figure.Units(l.UnitsPerCall)), cited(l.Source, l.Limit))
	case capacity.LimitPartition:
		c.say(", driven mostly by %s, which reaches %s", name(l.Pattern), cited(l.Source, l.Limit))
	case capacity.LimitBudget:
		c.say(", which reaches %s", cited(l.Source, l.Limit))
	}
	c.say(", at %s requests/s of this mix (%s× the measured %s requests/s)",
		cited(l.Source, figure.Units(l.Rate)), cited(l.Source, figure.Units(l.Factor)), ran(figure.Units(r.MeasuredRate))).mark()
	causeFinding(c, l)
	if l.Conflicts > 0 {
		c.say("; the run met %s item-level conflicts on it", ran(figure.Thousands(l.Conflicts)))
	}
	tiesFinding(c, l)
	return c.say("; to lift it, %s", name(l.Change))
}

// causeFinding says which side of l binds, what DynamoDB would answer
// and where CloudWatch counts it, a GSI's back-pressure, and a partition
// whose traffic is spread over many keys.
func causeFinding(c *claim, l capacity.Limit) {
	if l.Kind == capacity.LimitConflict {
		c.say("; DynamoDB cancels the transactions that meet there with reason %s, which CloudWatch counts in %s", name(l.Reason), name(l.Metric))
		return
	}
	if l.Side != "" {
		c.say("; it binds on the %s side", name(l.Side))
	}
	if l.Reason != "" {
		c.say(", where DynamoDB answers %s", name(l.Reason))
		if l.Metric != "" {
			c.say(" (CloudWatch counts it in %s)", name(l.Metric))
		}
		c.rests(rules.Cite("throttling-reason", "throttling-metrics")).mark()
	}
	if l.BackPressure {
		c.say("; as a GSI's writes, it throttles the table's writes that feed the index too (back-pressure)")
	}
	if l.Spread() {
		c.say("; %q carries only %s of its partition's load, the rest spread over other keys",
			name(l.Key), cited(rules.Cite("spread-partition"), percent(l.KeyShare))).mark()
	}
}

// tiesFinding names the limits within rules.TieShare of l, which may come
// first in another run.
func tiesFinding(c *claim, l capacity.Limit) {
	if len(l.Tied) == 0 {
		return
	}
	c.say("; tied within %s with", cited(rules.Cite("limit-tie"), percent(rules.TieShare)))
	for i, t := range l.Tied {
		sep := ", "
		if i == 0 {
			sep = " "
		}
		c.say("%s%s at %s requests/s", name(sep), name(tieName(t)), cited(t.Source, figure.Units(t.Rate)))
	}
	c.mark().say(", so another run may reach one of them first")
}

// laterLimitsFinding lists the limits after the first, in order.
func laterLimitsFinding(r capacity.Report) *claim {
	if len(r.LimitsInOrder) < 2 {
		return nil
	}
	c := new(claim).say("The limits after it, in order")
	for i, l := range r.LimitsInOrder[1:] {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		c.say("%s%s at %s requests/s", name(sep), name(limitWhat(l)), cited(l.Source, figure.Units(l.Rate)))
		if l.Pattern != "" {
			c.say(", mostly %s", name(l.Pattern))
		}
		if l.Reason != "" {
			c.say(" (%s)", name(l.Reason))
		}
		c.mark()
	}
	return c
}

// limitWhat names a limit for people: its kind and where.
func limitWhat(l capacity.Limit) string {
	switch l.Kind {
	case capacity.LimitConflict:
		return fmt.Sprintf("the transactions on item %q", l.Item)
	case capacity.LimitItem:
		return fmt.Sprintf("the throughput of one item, %q", l.Item)
	case capacity.LimitPartition:
		return fmt.Sprintf("the partition of key %q of %s", l.Key, capacity.TargetName(l.Target))
	}
	return capacity.TargetName(l.Target) + "'s own throughput"
}

// millis renders seconds as milliseconds, to a tenth.
func millis(s float64) string {
	return fmt.Sprintf("%.1f ms", float64(time.Duration(s*float64(time.Second)))/float64(time.Millisecond))
}

// tieName names a tied limit for people: its kind, where and side.
func tieName(t capacity.Tie) string {
	s := limitWhat(capacity.Limit{Kind: t.Kind, Target: t.Target, Key: t.Key, Item: t.Item})
	var cause []string
	if t.Side != "" {
		cause = append(cause, t.Side+"s")
	}
	if t.Reason != "" {
		cause = append(cause, t.Reason)
	}
	if len(cause) > 0 {
		s += " (" + strings.Join(cause, ", ") + ")"
	}
	return s
}
