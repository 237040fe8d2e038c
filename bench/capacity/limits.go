package capacity

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// The kinds of limit, in Limit.Kind, in the order a tie lists them.
const (
	LimitConflict  = "conflict"  // transactions that write one item run one at a time
	LimitItem      = "item"      // one item never passes one partition's throughput
	LimitPartition = "partition" // a partition, with the keys placed on it
	LimitBudget    = "budget"    // a table's or GSI's own throughput
)

var limitOrder = []string{LimitConflict, LimitItem, LimitPartition, LimitBudget}

// Limit is one thing that stops the mix as its rate grows: the lowest of
// its kind, reached at Rate requests per second of the mix, Factor times
// the measured rate, driven mostly by Pattern, and Change, what to change
// in the design to lift it. Source says what Rate rests on.
//
// A conflict limit names the Item (its key, "pk" or "pk / sk") whose
// transactions serialise: each of Pattern's calls holds it HoldSeconds
// (the p50 of its calls, as the run measured them), so the item takes
// PatternRate of them a second; Conflicts is the item-level conflicts the
// emulator met on it. An item limit names the Item whose own write units
// (UnitsPerCall a call of Pattern) reach one partition's. A
// partition limit names the partition Key the run placed there, a budget
// limit only its Target.
//
// Side is the side that reaches it (SideRead or SideWrite), Reason what
// DynamoDB answers there (a throttling reason, throughput.Reason, or
// ReasonConflict) and Metric the CloudWatch metric that counts it;
// BackPressure says a GSI's writes throttle the table's writes that feed
// it. KeyShare is the share of a partition's load its Key carries (at
// one half or under the traffic is spread, Spread). Tied lists the other
// limits the mix reaches within TieShare of Rate, which may come first
// in another run.
type Limit struct {
	Kind         string            `json:"kind"`
	Target       string            `json:"target"`
	Key          string            `json:"key,omitempty"`
	Item         string            `json:"item,omitempty"`
	Pattern      designs.PatternID `json:"pattern,omitempty"`
	Limit        string            `json:"limit"`
	Rate         float64           `json:"rate"`
	Factor       float64           `json:"factor"`
	UnitsPerCall float64           `json:"units_per_call,omitempty"`
	HoldSeconds  float64           `json:"hold_seconds,omitempty"`
	PatternRate  float64           `json:"pattern_rate,omitempty"`
	Conflicts    int64             `json:"conflicts,omitempty"`
	Change       string            `json:"change"`
	Source       *Source           `json:"source,omitempty"`
	Side         string            `json:"side,omitempty"`
	Reason       string            `json:"reason,omitempty"`
	Metric       string            `json:"cloudwatch_metric,omitempty"`
	BackPressure bool              `json:"back_pressure,omitempty"`
	KeyShare     float64           `json:"key_share,omitempty"`
	Tied         []Tie             `json:"tied,omitempty"`
}

// limits lists the lowest limit of each kind the mix reaches, lowest
// first: part and budget are the first partition and table or GSI, all
// every partition and table or GSI the mix reaches (firstCeilings). The
// first names the others within TieShare of it.
func (r *run) limits(part, budget *Ceiling, all []Ceiling) []Limit {
	var out []Limit
	for _, l := range []*Limit{r.conflictLimit(), r.itemLimit(), ceilingLimit(LimitPartition, part, r.placedSource()), ceilingLimit(LimitBudget, budget, r.budgetSource())} {
		if l != nil && l.Rate > 0 && !math.IsInf(l.Rate, 1) {
			l.Change = limitChange(*l, r.provisioned())
			if r.rate > 0 {
				l.Factor = l.Rate / r.rate
			}
			out = append(out, *l)
		}
	}
	slices.SortStableFunc(out, func(a, b Limit) int {
		return cmp.Or(cmp.Compare(a.Rate, b.Rate), cmp.Compare(slices.Index(limitOrder, a.Kind), slices.Index(limitOrder, b.Kind)))
	})
	if len(out) > 0 {
		r.ties(&out[0], out[1:], all)
	}
	return out
}

// itemName is an item's key as reports show it: "pk" or "pk / sk".
func itemName(pk, sk string) string {
	if sk == "" {
		return pk
	}
	return pk + " / " + sk
}

// itemLimit is the item whose own write units reach one partition's
// limit at the lowest rate: adaptive capacity may isolate an item on a
// partition of its own, never split it.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html#isolate-frequent-access-items
func (r *run) itemLimit() *Limit {
	var best *Limit
	r.l.eachUse(func(pk, sk string, u itemUse) {
		var total usage
		weights := map[designs.PatternID]float64{}
		for _, b := range u.by {
			if b.pattern != 0 {
				total.wcu += float64(b.wcu)
				weights[r.l.patternOf(b)] += float64(b.wcu)
			}
		}
		rate := r.rateOf(total)
		item := itemName(pk, sk)
		if rate <= 0 || best != nil && (rate > best.Rate || rate == best.Rate && item >= best.Item) {
			return
		}
		p := heaviest(weights)
		l := &Limit{Kind: LimitItem, Target: designs.MainTable, Key: pk, Item: item, Pattern: p, Rate: rate, Limit: r.itemLimitText(),
			Side: SideWrite, Reason: itemReason, Metric: throughput.ReasonMetric(itemReason),
			Source: Cite("item-ceiling", "partition-writes", "write-unit")}
		for _, b := range u.by {
			if b.pattern != 0 && r.l.patternOf(b) == p && b.calls > 0 {
				l.UnitsPerCall = float64(b.wcu) / float64(b.calls)
			}
		}
		best = l
	})
	return best
}

// itemLimitText names one item's limit, scaled.
func (r *run) itemLimitText() string {
	lim := r.partitionLimit()
	return fmt.Sprintf("%s WCU/s on one item%s", figure.Thousands(lim.wcu), scaleText(r.scale()))
}

// conflictLimit is the item whose transactions fill its time at the
// lowest rate: DynamoDB refuses a write of an item an ongoing transaction
// holds, so the transactions that write one item run one at a time, each
// holding it for about its own time in flight (taken as the p50 of its
// pattern's calls: AWS does not say how long). The item takes about
// 1 ÷ (Σ over patterns of their transactions on it per request × their
// hold) requests of the mix a second, counting the transactions a
// conflict cancelled (demanded).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
func (r *run) conflictLimit() *Limit {
	if len(r.HoldTime) == 0 || r.requests == 0 {
		return nil
	}
	var best *Limit
	r.l.eachUse(func(pk, sk string, u itemUse) {
		busy, top, topTerm := 0.0, patternUse{}, 0.0
		for _, b := range u.by {
			if b.pattern == 0 || b.txWrites == 0 {
				continue
			}
			p := r.l.patternOf(b)
			term := r.demanded(p, b.txWrites) / float64(r.requests) * r.HoldTime[p].Seconds()
			busy += term
			if term > topTerm {
				top, topTerm = b, term
			}
		}
		if busy <= 0 {
			return
		}
		rate, item := 1/busy, itemName(pk, sk)
		if best != nil && (rate > best.Rate || rate == best.Rate && item >= best.Item) {
			return
		}
		p := r.l.patternOf(top)
		best = &Limit{Kind: LimitConflict, Target: designs.MainTable, Key: pk, Item: item, Pattern: p, Rate: rate,
			Limit: "one transaction at a time on one item", HoldSeconds: r.HoldTime[p].Seconds(),
			Side: SideWrite, Reason: ReasonConflict, Metric: ReasonConflict,
			PatternRate: rate * r.demanded(p, top.txWrites) / float64(r.requests), Conflicts: r.ItemConflicts[item],
			Source: Cite("conflict-ceiling")}
	})
	return best
}

// demanded is how many of pattern p's calls asked to write an item that n
// of its calls the ledger saw wrote: n scaled by the calls the run made of
// p over those the ledger saw, as a conflict cancels calls before they
// reach it.
func (r *run) demanded(p designs.PatternID, n int32) float64 {
	var seen int64
	for k, u := range r.l.patterns {
		if k.Pattern == p {
			seen += u.Calls
		}
	}
	made := r.PatternCalls[p]
	if seen == 0 || made <= seen {
		return float64(n)
	}
	return float64(n) * float64(made) / float64(seen)
}

// ceilingLimit is the limit of kind that c, a partition's or a table's or
// GSI's first ceiling, names, resting on src.
func ceilingLimit(kind string, c *Ceiling, src *Source) *Limit {
	if c == nil {
		return nil
	}
	l := &Limit{Kind: kind, Target: c.Target, Key: c.Key, Pattern: c.Pattern, Limit: c.Limit, Rate: c.Rate, Source: src}
	ceilingCause(l, c)
	return l
}

// itemReason is what DynamoDB answers when one item's writes pass its
// partition's: the table's key range is exceeded.
var itemReason = throughput.Reason(false, throughput.Write, throughput.KeyRange)
