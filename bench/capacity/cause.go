package capacity

import (
	"cmp"
	"slices"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// The sides of a limit, in Limit.Side and Ceiling.Side.
const (
	SideRead  = "read"
	SideWrite = "write"
)

// ReasonConflict is what DynamoDB names a conflict limit's refusals: the
// cancellation reason of a transaction that met another on an item, and
// the CloudWatch metric that counts them.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
const ReasonConflict = "TransactionConflict"

// maxTied bounds the tied limits a limit names.
const maxTied = 3

// Tie is another limit the mix reaches within rules.TieShare of the first: its
// kind, where (Target and Key, or the Item), its side and reason, and the
// rate of the mix that reaches it.
type Tie struct {
	Kind   string        `json:"kind"`
	Target string        `json:"target"`
	Key    string        `json:"key,omitempty"`
	Item   string        `json:"item,omitempty"`
	Side   string        `json:"side,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Rate   float64       `json:"rate"`
	Source *rules.Source `json:"source,omitempty"`
}

// sideName is a side as limits name it.
func sideName(write bool) string {
	if write {
		return SideWrite
	}
	return SideRead
}

// withReason sets the reason DynamoDB would give when c, a partition's
// (with a Key) or a table's or GSI's own limit, refuses on c.Side, and
// the CloudWatch metric that counts those events.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
func (r *run) withReason(c *Ceiling) *Ceiling {
	if c == nil || c.Side == "" {
		return c
	}
	side, write := throughput.Read, c.Side == SideWrite
	if write {
		side = throughput.Write
	}
	limit := throughput.KeyRange
	if c.Key == "" {
		limit = r.budgetLimitType(write)
	}
	c.Reason = throughput.Reason(c.Target != designs.MainTable, side, limit)
	c.Metric = throughput.ReasonMetric(c.Reason)
	return c
}

// budgetLimitType is which of a table's or GSI's own limits tableLimit
// gives on a side: provisioned, the on-demand maximum throughput when one
// is set, else the account's per-table quota.
func (r *run) budgetLimitType(write bool) string {
	switch {
	case r.provisioned():
		return throughput.Provisioned
	case write && r.MaxWrites > 0, !write && r.MaxReads > 0:
		return throughput.MaxOnDemand
	}
	return throughput.AccountLimit
}

// ceilingCause copies c's side, reason and back-pressure to l, and for a
// partition the share of its load its named key carries.
func ceilingCause(l *Limit, c *Ceiling) {
	l.Side, l.Reason, l.Metric, l.BackPressure = c.Side, c.Reason, c.Metric, c.BackPressure
	if sh := c.Sharing; c.Key != "" && sh != nil && sh.Alone > 0 {
		l.KeyShare = min(1, c.Rate/sh.Alone)
	}
}

// Spread reports whether a partition limit's load is spread over several
// keys: its named key carries a third of it or less.
func (l Limit) Spread() bool {
	return l.Kind == LimitPartition && l.KeyShare > 0 && l.KeyShare <= rules.SpreadShare+1e-9
}

// tieOf is a limit as another names it.
func tieOf(l Limit) Tie {
	return Tie{Kind: l.Kind, Target: l.Target, Key: l.Key, Item: l.Item, Side: l.Side, Reason: l.Reason, Rate: l.Rate, Source: l.Source}
}

// ties sets first's Tied: the limits of others (the lowest of each other
// kind, and every partition and table or GSI the mix reaches, as
// candidates lists them) within rules.TieShare of its rate, lowest first.
func (r *run) ties(first *Limit, others []Limit, candidates []Ceiling) {
	// A partition and an item on it are one limit named twice.
	oneKey := map[string]bool{LimitItem: true, LimitPartition: true}
	same := func(t Tie) bool {
		if t.Target != first.Target || t.Key != first.Key {
			return false
		}
		return oneKey[t.Kind] && oneKey[first.Kind] || t.Kind == first.Kind && t.Item == first.Item && t.Side == first.Side
	}
	var out []Tie
	add := func(t Tie) {
		if t.Rate <= first.Rate*(1+rules.TieShare) && !same(t) && !slices.ContainsFunc(out, func(o Tie) bool {
			return o.Kind == t.Kind && o.Target == t.Target && o.Key == t.Key && o.Item == t.Item && o.Side == t.Side
		}) {
			out = append(out, t)
		}
	}
	for _, l := range others {
		add(tieOf(l))
	}
	for _, c := range candidates {
		kind, src := LimitBudget, r.budgetSource()
		if c.Key != "" {
			kind, src = LimitPartition, r.placedSource()
		}
		add(Tie{Kind: kind, Target: c.Target, Key: c.Key, Side: c.Side, Reason: c.Reason, Rate: c.Rate, Source: src})
	}
	slices.SortStableFunc(out, func(a, b Tie) int {
		return cmp.Or(cmp.Compare(a.Rate, b.Rate), cmp.Compare(a.Target+a.Key+a.Item, b.Target+b.Key+b.Item))
	})
	first.Tied = out[:min(len(out), maxTied)]
}

// limitChange is what to change in the design to lift l, by its kind and
// cause: a partition whose load is spread over many keys needs more
// partitions, not one key sharded; a table's or GSI's own limit more
// throughput of the kind that binds.
func limitChange(l Limit, provisioned bool) string {
	switch l.Kind {
	case LimitConflict:
		return "shard the counter (or whatever every transaction writes there) over several items and sum them when read, or move that write out of the transaction"
	case LimitItem:
		return "spread the item's traffic over several items (write sharding), or cache its reads"
	case LimitPartition:
		switch {
		case l.Spread() && provisioned:
			return "raise " + TargetName(l.Target) + "'s provisioned throughput, which gives it more partitions: its traffic is spread over many keys, so sharding one of them would not lift it"
		case l.Spread():
			return "raise " + TargetName(l.Target) + "'s warm throughput, which gives it more partitions, or ramp up so that it splits: its traffic is spread over many keys, so sharding one of them would not lift it"
		case l.Side == SideRead:
			return "spread the key's reads over more partition key values, cache them, or move its busiest items to keys of their own"
		}
		return "spread the key's traffic over more partition key values (write sharding), or move its busiest items to keys of their own"
	}
	switch {
	case throughput.Reason(l.Target != designs.MainTable, sideIndex(l.Side), throughput.Provisioned) == l.Reason:
		return "raise " + TargetName(l.Target) + "'s provisioned " + l.Side + " throughput (or let auto scaling raise it), or cut the units each call takes"
	case throughput.Reason(l.Target != designs.MainTable, sideIndex(l.Side), throughput.MaxOnDemand) == l.Reason:
		return "raise " + TargetName(l.Target) + "'s maximum " + l.Side + " throughput, or cut the units each call takes"
	}
	return "ask AWS to raise the per-table " + l.Side + " quota (Service Quotas), or cut the units each call takes"
}

// sideIndex is throughput's index of a side.
func sideIndex(side string) int {
	if side == SideWrite {
		return throughput.Write
	}
	return throughput.Read
}
