package capacity

import (
	"fmt"
	"math"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// growPeriod is how long DynamoDB may take to serve more than double an
// on-demand table's previous peak: traffic that doubles no faster than
// this is served.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
const growPeriod = 30 * 60 // seconds

// warmUnits is the warm throughput of the table and each GSI: the
// scenario's, or a new on-demand table's (and, by AWS's DescribeTable
// example, a new GSI's).
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/check-warm-throughput.html
func (r *run) warmUnits() (u usage, declared bool) {
	u = usage{ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU}
	if r.WarmReads > 0 {
		u.rcu, declared = r.WarmReads, true
	}
	if r.WarmWrites > 0 {
		u.wcu, declared = r.WarmWrites, true
	}
	return usage{u.rcu * r.scale(), u.wcu * r.scale()}, declared
}

// warm is the new on-demand table's ceiling: the lowest rate at which the
// table or a GSI reaches its warm throughput, reads and writes each on
// their own, when that comes before its 40,000-unit quota. It says how
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
		for _, side := range []struct {
			per, limit float64
			name       string
		}{{per.rcu, lim.rcu, "RRU"}, {per.wcu, lim.wcu, "WRU"}} {
			if side.per <= 0 {
				continue
			}
			rate := side.limit / side.per
			if rate >= quota || (best != nil && rate >= best.Rate) {
				continue
			}
			best = &WarmCeiling{Target: space, Side: side.name, ReadUnits: lim.rcu, WriteUnits: lim.wcu, Declared: declared, Rate: rate,
				Limit: fmt.Sprintf("%s %s/s warm throughput of a new on-demand table%s", thousands(side.limit), side.name, scaleText(r.scale()))}
			if declared {
				best.Limit = fmt.Sprintf("%s %s/s warm throughput declared by the scenario%s", thousands(side.limit), side.name, scaleText(r.scale()))
			}
		}
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
		best.GrowSeconds = float64(best.Doublings * growPeriod)
	}
	return best
}

// doublings is how many times traffic must double to grow from one rate to
// another.
func doublings(from, to float64) int {
	if to <= from {
		return 0
	}
	return int(math.Ceil(math.Log2(to / from)))
}
