package capacity

import (
	"fmt"
	"math"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// spaceConfig is the throughput engine's table or GSI as the model has
// it: configured as the run's emulator configured it (throughput.ConfigOf).
func (r *run) spaceConfig() throughput.Config { return throughput.ConfigOf(r.Settings, r.Schema) }

// warmUnits is the warm throughput of the table and each GSI, scaled: the
// scenario's, or a new on-demand table's (and, by AWS's DescribeTable
// example, a new GSI's), or what a table switched from provisioned was
// provisioned with where higher (throughput.Config.Warm).
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/check-warm-throughput.html
func (r *run) warmUnits() (u ledger.Usage, declared bool) {
	rcu, wcu := r.spaceConfig().Warm()
	return ledger.Usage{RCU: rcu * r.scale(), WCU: wcu * r.scale()}, r.WarmReads > 0 || r.WarmWrites > 0
}

// warm is the new on-demand table's ceiling: the lowest rate at which the
// table or a GSI reaches its warm throughput, its reads and writes taking
// their shares of it together (WarmShare), when that comes before its
// 40,000-unit quota. Side names the side that takes the larger share. It says how
// many 30-minute doublings traffic that ramps up needs to reach the target
// rate (or, without one or below it, the first steady ceiling), and how
// much of the target rate a table that has not grown would refuse.
func (r *run) warm(steady *Ceiling) *WarmCeiling {
	if r.provisioned() || r.requests == 0 {
		return nil
	}
	lim, declared := r.warmUnits()
	var best *WarmCeiling
	for _, space := range r.spaces() {
		u, _, _ := r.spaceUnits(space)
		per := r.perRequest(u)
		quota, _ := r.tableThrottleRate(space)
		share := throughput.WarmShare(per.RCU, per.WCU, lim.RCU, lim.WCU)
		if share <= 0 {
			continue
		}
		rate := 1 / share
		if rate >= quota || (best != nil && rate >= best.Rate) {
			continue
		}
		side := "WRU"
		if per.RCU/lim.RCU > per.WCU/lim.WCU {
			side = "RRU"
		}
		whose := "of a new on-demand table"
		switch {
		case declared:
			whose = "declared by the scenario"
		case r.SwitchedRCU > 0 || r.SwitchedWCU > 0:
			whose = "of a table switched from provisioned"
		}
		best = &WarmCeiling{Target: space, Side: side, ReadUnits: lim.RCU, WriteUnits: lim.WCU, Declared: declared, Rate: rate,
			Limit: fmt.Sprintf("%s RRU/s or %s WRU/s (or a linear combination) warm throughput %s%s",
				figure.Thousands(lim.RCU), figure.Thousands(lim.WCU), whose, scaleText(r.scale()))}
	}
	if best == nil {
		return nil
	}
	if r.rate > 0 {
		best.Factor = best.Rate / r.rate
	}
	switch {
	case r.TargetRate > best.Rate:
		best.GrowTo = r.TargetRate
		best.DayOneRefused = 1 - best.Rate/r.TargetRate
	case steady != nil && steady.Rate > best.Rate:
		best.GrowTo = steady.Rate
	}
	if best.GrowTo > 0 {
		best.Doublings = doublings(best.Rate, best.GrowTo)
		best.GrowSeconds = float64(best.Doublings * ddbitem.GrowSeconds)
	}
	return best
}

// doublings is how many growth steps (each ddbitem.GrowFactor times the
// last) take traffic from one rate to another.
func doublings(from, to float64) int {
	if to <= from {
		return 0
	}
	return int(math.Ceil(math.Log(to/from) / math.Log(ddbitem.GrowFactor)))
}
