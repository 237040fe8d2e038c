package capacity

import (
	"github.com/ddbharness/ddbharness/bench/capacity/capacitytest"
	"github.com/ddbharness/ddbharness/pricing/pricingtest"
)

// The specs' table, items and time, as pricing's specs have them, and the
// calls the model's and the findings' specs analyze.
var (
	schema, t0            = pricingtest.Schema, pricingtest.T0
	s, with, sized, items = pricingtest.S, pricingtest.With, pricingtest.Sized, pricingtest.Items
	put, spreadPuts       = capacitytest.Put, capacitytest.SpreadPuts
	onSale, repeat        = capacitytest.OnSale, capacitytest.Repeat
	shardMix, ledgerOf    = capacitytest.ShardMix, capacitytest.LedgerOf
	lightKeysPlaced       = capacitytest.LightKeysPlaced
)
