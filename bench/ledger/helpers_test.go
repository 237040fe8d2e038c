package ledger

import "github.com/ddbharness/ddbharness/pricing/pricingtest"

// The specs' table, items and time, as pricing's specs have them.
var (
	schema, t0            = pricingtest.Schema, pricingtest.T0
	s, with, sized, items = pricingtest.S, pricingtest.With, pricingtest.Sized, pricingtest.Items
)
