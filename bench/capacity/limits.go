package capacity

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
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
// on real DynamoDB (rules.DefaultTransactionHold, or the scenario's own when
// HoldDeclared), so the item takes PatternRate of them a second;
// TestBedHoldSeconds is the p50 of the pattern's calls on the test bed,
// shown beside it and never used; Conflicts is the item-level conflicts
// the emulator met on it. An item limit names the Item whose own write units
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
// limits the mix reaches within rules.TieShare of Rate, which may come first
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
	Source       *rules.Source     `json:"source,omitempty"`
	Side         string            `json:"side,omitempty"`
	Reason       string            `json:"reason,omitempty"`
	Metric       string            `json:"cloudwatch_metric,omitempty"`
	BackPressure bool              `json:"back_pressure,omitempty"`
	KeyShare     float64           `json:"key_share,omitempty"`
	Tied         []Tie             `json:"tied,omitempty"`

	// HoldDeclared says the scenario set HoldSeconds; TestBedHoldSeconds
	// is a measurement of the test bed, not of DynamoDB.
	HoldDeclared       bool    `json:"hold_declared,omitempty"`
	TestBedHoldSeconds float64 `json:"test_bed_hold_seconds,omitempty"`
}

// limits lists the lowest limit of each kind the mix reaches, lowest
// first: part and budget are the first partition and table or GSI, all
// every partition and table or GSI the mix reaches (firstCeilings). The
// first names the others within rules.TieShare of it.
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
	r.l.EachUse(func(pk, sk string, u ledger.ItemUse) {
		var total ledger.Usage
		weights := map[designs.PatternID]float64{}
		for _, b := range u.By {
			if b.Pattern != 0 {
				total.WCU += float64(b.WCU)
				weights[r.l.PatternOf(b)] += float64(b.WCU)
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
			Source: rules.Cite("item-ceiling", "partition-writes", "write-unit")}
		for _, b := range u.By {
			if b.Pattern != 0 && r.l.PatternOf(b) == p && b.Calls > 0 {
				l.UnitsPerCall = float64(b.WCU) / float64(b.Calls)
			}
		}
		best = l
	})
	return best
}

// itemLimitText names one item's limit, scaled.
func (r *run) itemLimitText() string {
	lim := r.partitionLimit()
	return fmt.Sprintf("%s WCU/s on one item%s", figure.Thousands(lim.WCU), scaleText(r.scale()))
}

// conflictLimit is the item whose transactions fill its time at the
// lowest rate: DynamoDB refuses a write of an item an ongoing transaction
// holds, so the transactions that write one item run one at a time, each
// holding it for its time in flight on the service (hold: AWS does not
// say how long; the test bed's own, which grows with the load of the
// machine that runs it, is only shown). The item takes about 1 ÷ (Σ over
// patterns of their transactions on it per request × their hold)
// requests of the mix a second, counting the transactions that were
// denied (txAsked).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
func (r *run) conflictLimit() *Limit {
	if r.requests == 0 {
		return nil
	}
	var best *Limit
	for item, a := range r.txAsked() {
		busy, top, topTerm := 0.0, designs.PatternID(""), 0.0
		for _, p := range slices.Sorted(maps.Keys(a.by)) {
			h, _ := r.hold(p)
			term := r.txPerRequest(p, a.by[p]) * h.Seconds()
			busy += term
			if term > topTerm {
				top, topTerm = p, term
			}
		}
		if busy <= 0 {
			continue
		}
		rate := 1 / busy
		if best != nil && (rate > best.Rate || rate == best.Rate && item >= best.Item) {
			continue
		}
		h, declared := r.hold(top)
		best = &Limit{Kind: LimitConflict, Target: designs.MainTable, Key: a.pk, Item: item, Pattern: top, Rate: rate,
			Limit: "one transaction at a time on one item", HoldSeconds: h.Seconds(), HoldDeclared: declared,
			TestBedHoldSeconds: r.TestBedHold[top].Seconds(),
			Side:               SideWrite, Reason: ReasonConflict, Metric: ReasonConflict,
			PatternRate: rate * r.txPerRequest(top, a.by[top]), Conflicts: r.ItemConflicts[item],
			Source: holdSource(declared)}
	}
	return best
}

// txPerRequest is n of pattern p's calls per request of the mix: by p's
// share of the mix (PatternShare) when known, else by the requests the
// run counted.
func (r *run) txPerRequest(p designs.PatternID, n float64) float64 {
	if share, calls := r.PatternShare[p], r.PatternCalls[p]; share > 0 && calls > 0 {
		return n / float64(calls) * share
	}
	return n / float64(r.requests)
}

// asked is the transactions of each pattern that asked to write one item
// (pk its partition key), served or not.
type asked struct {
	pk string
	by map[designs.PatternID]float64
}

// txAsked is, by item ("pk" or "pk / sk"), the transactions that asked to
// write it: those the ledger saw, and those the run's emulator denied
// (TxDenied); without the emulator's counts, those the ledger saw scaled
// to the calls made (demanded).
func (r *run) txAsked() map[string]asked {
	out := map[string]asked{}
	add := func(pk, item string, p designs.PatternID, n float64) {
		a, ok := out[item]
		if !ok {
			a = asked{pk: pk, by: map[designs.PatternID]float64{}}
			out[item] = a
		}
		a.by[p] += n
	}
	r.l.EachUse(func(pk, sk string, u ledger.ItemUse) {
		for _, b := range u.By {
			if b.Pattern == 0 || b.TxWrites == 0 {
				continue
			}
			p, n := r.l.PatternOf(b), float64(b.TxWrites)
			if r.TxDenied == nil {
				n = r.demanded(p, b.TxWrites)
			}
			add(pk, itemName(pk, sk), p, n)
		}
	})
	for item, by := range r.TxDenied {
		pk, _, _ := strings.Cut(item, " / ")
		for p, n := range by {
			add(pk, item, p, float64(n))
		}
	}
	return out
}

// demanded is how many of pattern p's calls asked to write an item that n
// of its calls the ledger saw wrote: n scaled by the calls the run made of
// p over those the ledger saw, as a conflict cancels calls before they
// reach it.
func (r *run) demanded(p designs.PatternID, n int32) float64 {
	var seen int64
	for k, u := range r.l.Patterns() {
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
func ceilingLimit(kind string, c *Ceiling, src *rules.Source) *Limit {
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
