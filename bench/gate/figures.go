package gate

import (
	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/designs"
)

// Figures are one pattern's deterministic figures per served call:
// capacity units by AWS's rules, the price of a million calls on the
// table's billing mode, and the bytes its writes added to the table's
// items. They depend on item sizes and the mix's keys, not on timing: a
// call the limits denied (throttled to the end, or cancelled for a
// conflict) took no units, so it counts in Calls but not in Served.
type Figures struct {
	Calls  int64   `json:"calls,omitempty"`
	Served int64   `json:"served,omitempty"`
	RCU    float64 `json:"rcu_per_call"`
	WCU    float64 `json:"wcu_per_call"`
	Cost   float64 `json:"cost_per_million"`
	Bytes  float64 `json:"bytes_grown_per_call"`
}

// PatternFigures is each pattern's Figures on out: the capacity model's
// units over the pattern's served calls (every operation of a call
// counted), priced as the model prices the mix. A pattern that made no
// call has no figures; one whose every call was denied has them at 0.
func PatternFigures(out bench.Outcome) map[designs.PatternID]Figures {
	calls := map[designs.PatternID]int64{}
	for _, p := range out.Patterns {
		calls[p.ID] += int64(p.Metrics.Requests)
	}
	denied := map[designs.PatternID]int64{}
	if th := out.Throttling; th != nil {
		for _, p := range th.Patterns {
			denied[p.Pattern] += p.Throttled + p.ConflictCancelled
		}
	}
	sums := map[designs.PatternID]*Figures{}
	for _, u := range out.Capacity.Patterns {
		f := sums[u.Pattern]
		if f == nil {
			f = &Figures{}
			sums[u.Pattern] = f
		}
		f.RCU += u.RCU
		f.WCU += u.WCU
		f.Bytes += float64(u.Grown)
	}
	figs := map[designs.PatternID]Figures{}
	for id, n := range calls {
		if n == 0 {
			continue
		}
		f := Figures{Calls: n, Served: max(0, n-denied[id])}
		if s := sums[id]; s != nil && f.Served > 0 {
			served := float64(f.Served)
			f.RCU, f.WCU, f.Bytes = s.RCU/served, s.WCU/served, s.Bytes/served
		}
		onDemand, provisioned := out.Capacity.Cost.PerMillion(f.RCU, f.WCU)
		f.Cost = onDemand
		if out.Capacity.Billing == "provisioned" {
			f.Cost = provisioned
		}
		figs[id] = f
	}
	return figs
}
