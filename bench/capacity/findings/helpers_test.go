package findings

import (
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/capacitytest"
	"github.com/ddbharness/ddbharness/bench/ledger"
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

// analyzed is m's report of the ledger l, worded as bench words it.
func analyzed(m capacity.Model, l *ledger.Ledger) capacity.Report {
	r := m.Analyze(l)
	r.Findings = Of(r)
	return r
}

// analyze observes calls spread evenly over the model's seconds, and
// analyzes and words them.
func analyze(m capacity.Model, calls ...pricing.Observation) capacity.Report {
	m.Requests = int64(len(calls))
	return analyzed(m, capacitytest.Observed(m.Schema, m.Duration, calls...))
}
