package capacity

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// fresh is n puts of 1 KB, each on a partition key of its own: 1 WRU a
// request.
func fresh(n int) []pricing.Observation { return puts(n, n) }

// puts is n puts of 1 KB over keys partition key values in turn.
func puts(n, keys int) []pricing.Observation {
	calls := make([]pricing.Observation, n)
	for i := range calls {
		calls[i] = pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i%keys), "A", 900)}}}
	}
	return calls
}

// A maximum write throughput is the table's limit when it comes first:
// the ceiling names it, the new table's warm throughput (above it) is no
// ceiling, and the forecast's replay refuses on the table's budget, which
// it does not without one.
func TestMaxOnDemandIsTheTablesLimit(t *testing.T) {
	m := Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 1000, Settings: throughput.Settings{MaxWrites: 100}}
	r := analyze(m, fresh(100)...)
	if c := r.Ceiling; c == nil || c.Key != "" || c.Target != designs.MainTable || !near(c.Rate, 100) || c.Limit != "100 WCU/s on-demand maximum throughput" {
		t.Errorf("Analyze().Ceiling = %+v, want the table's 100 WCU/s maximum at 100 requests/s", c)
	}
	if r.Warm != nil {
		t.Errorf("Analyze().Warm = %+v, want none: the maximum comes before the warm throughput", r.Warm)
	}
	if !budgetRefused(r) {
		t.Errorf("Analyze().Forecast.Replay = %+v, want the table's budget refusing at 10× its maximum", r.Forecast.Replay)
	}
	m.MaxWrites = 0
	if r := analyze(m, fresh(100)...); budgetRefused(r) {
		t.Errorf("without a maximum, the forecast's replay refused on the budget: %+v", r.Forecast.Replay)
	}
}

// budgetRefused reports whether the forecast's replay refused on the
// table's budget.
func budgetRefused(r Report) bool {
	if r.Forecast == nil || r.Forecast.Replay == nil {
		return false
	}
	for _, p := range r.Forecast.Replay.Partitions {
		if p.Target == designs.MainTable && p.Partition == -1 && p.Refused > 0 {
			return true
		}
	}
	return false
}

// A table switched from provisioned at 24,000 RCU and 8,000 WCU starts at
// that warm throughput, above a new table's, on the 16 partitions it had:
// the warm ceiling of a write mix is 8,000 requests/s, not 4,000, and the
// hot keys (ten, a tenth of the writes each) are placed on 16 partitions.
func TestSwitchedFromProvisionedWarmCeiling(t *testing.T) {
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 10000, Settings: throughput.Settings{SwitchedRCU: 24000, SwitchedWCU: 8000}}, puts(100, 10)...)
	w := r.Warm
	if w == nil || !near(w.Rate, 8000) || w.Limit != "24,000 RRU/s or 8,000 WRU/s (or a linear combination) warm throughput of a table switched from provisioned" {
		t.Errorf("Analyze().Warm = %+v, want the switched table's 8,000 WRU/s at 8,000 requests/s", w)
	}
	if c := r.Ceiling; c == nil || c.Sharing == nil || c.Sharing.Partitions != 16 {
		t.Errorf("Analyze().Ceiling = %+v, want a partition of the 16 the table kept", c)
	}
}
