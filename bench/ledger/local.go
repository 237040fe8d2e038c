package ledger

import (
	"math"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// PatternOp is one operation of one pattern: a pattern that reads, then
// writes in a transaction, has a row for each.
type PatternOp struct {
	Pattern designs.PatternID `json:"pattern"`
	Op      designs.Operation `json:"op"`
}

// patternOpOf is the pattern operation o made.
func patternOpOf(o pricing.Observation) PatternOp { return PatternOp{o.Pattern, o.Op} }

// PatternUsage is one pattern's capacity over a run: the units AWS's rules
// give (RCU, WCU) and the units DynamoDB Local reported (Local, over the
// LocalCalls that carried a figure and were compared).
//
// Filtered and Counted count its calls with a FilterExpression or
// Select=COUNT, which DynamoDB charges for every item they evaluated
// (Evaluated, the sum of their ScannedCount), not the Returned ones. Of
// those calls, LocalCharged were charged at Local's own figure because the
// items they evaluated were not known. EventualRCU is the part of RCU its
// eventually consistent reads took.
type PatternUsage struct {
	PatternOp
	Calls        int64   `json:"calls"`
	RCU          float64 `json:"rcu"`
	EventualRCU  float64 `json:"eventual_rcu,omitempty"`
	WCU          float64 `json:"wcu"`
	Local        float64 `json:"local_units"`
	LocalCalls   int64   `json:"local_calls"`
	Filtered     int64   `json:"filtered_calls,omitempty"`
	Counted      int64   `json:"counted_calls,omitempty"`
	Evaluated    int64   `json:"evaluated_items,omitempty"`
	Returned     int64   `json:"returned_items,omitempty"`
	LocalCharged int64   `json:"local_charged_calls,omitempty"`
	// Grown is the bytes its writes added to the table's items, net:
	// items created and enlarged, less items shrunk and deleted.
	Grown int64 `json:"bytes_grown"`
}

// Evaluating is how many of the pattern's calls filtered or counted: the
// calls of one pattern operation share their shape, so a call that does
// both is counted once.
func (p PatternUsage) Evaluating() int64 { return max(p.Filtered, p.Counted) }

// Disagreement is where DynamoDB Local's figure for a pattern on a target
// differs from AWS's rules: over Calls calls carrying a Local figure,
// Differing disagreed; Units and LocalUnits sum both figures over all Calls,
// and the example is the first call that disagreed.
type Disagreement struct {
	PatternOp
	Target       string  `json:"target"`
	Calls        int64   `json:"calls"`
	Differing    int64   `json:"differing"`
	Units        float64 `json:"units"`
	LocalUnits   float64 `json:"local_units"`
	ExampleUnits float64 `json:"example_units"`
	ExampleLocal float64 `json:"example_local_units"`
}

// compare sets one call's charges beside Local's figures, per target.
func (l *Ledger) compare(o pricing.Observation, charges []pricing.Charge, local map[string]float64) {
	p := l.patterns[patternOpOf(o)]
	p.LocalCalls++
	ours := map[string]float64{}
	for _, c := range charges {
		if _, whole := local[pricing.WholeCall]; whole {
			ours[pricing.WholeCall] += c.RCU + c.WCU
		} else {
			ours[c.Target] += c.RCU + c.WCU
		}
	}
	for target, u := range local {
		p.Local += u
		if _, ok := ours[target]; !ok {
			ours[target] = 0
		}
	}
	for target, u := range ours {
		k := DiffKey{patternOpOf(o), target}
		d := l.diffs[k]
		if d == nil {
			d = &Disagreement{PatternOp: k.PatternOp, Target: target}
			l.diffs[k] = d
		}
		d.Calls++
		d.Units += u
		d.LocalUnits += local[target]
		if math.Abs(u-local[target]) > 1e-9 {
			if d.Differing == 0 {
				d.ExampleUnits, d.ExampleLocal = u, local[target]
			}
			d.Differing++
		}
	}
}
