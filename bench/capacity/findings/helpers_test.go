package findings

import (
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/capacitytest"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/pricing/pricingtest"
)

// The specs' table, items and calls, as the capacity model's specs have
// them.
var (
	schema, s, with, sized = pricingtest.Schema, pricingtest.S, pricingtest.With, pricingtest.Sized
	put, spreadPuts        = capacitytest.Put, capacitytest.SpreadPuts
	onSale, repeat         = capacitytest.OnSale, capacitytest.Repeat
	shardMix, ledgerOf     = capacitytest.ShardMix, capacitytest.LedgerOf
	lightKeysPlaced        = capacitytest.LightKeysPlaced
)

// analyze observes calls spread evenly over the model's seconds, and
// analyzes and words them.
func analyze(m capacity.Model, calls ...pricing.Observation) capacity.Report {
	m.Requests = int64(len(calls))
	return Analyze(m, capacitytest.Observed(m.Schema, m.Duration, calls...))
}
