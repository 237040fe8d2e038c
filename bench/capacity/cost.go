package capacity

import (
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
)

// cost prices the mix per million requests. On demand, each request pays
// its units. Provisioned, the table and its GSIs carry throughput for the
// mix at 70 % utilisation (the target utilisation of the guide's auto
// scaling example), so a request costs its units' share of an hour of
// capacity, divided by that utilisation.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
func (r *run) cost() Cost {
	c := Cost{Region: rules.PriceRegion, TableClass: rules.PriceTableClass, PriceDate: rules.PriceDate, Source: rules.PriceSource,
		Utilization: rules.ProvisionedUtilisation, ReadRequestUnit: rules.PricePerMillionRRU, WriteRequestUnit: rules.PricePerMillionWRU,
		RCUHour: rules.PricePerRCUHour, WCUHour: rules.PricePerWCUHour}
	var total ledger.Usage
	for _, t := range r.l.Targets() {
		total.RCU, total.WCU = total.RCU+t.RCU, total.WCU+t.WCU
	}
	per := r.perRequest(total)
	c.RCUPerRequest, c.WCUPerRequest = per.RCU, per.WCU
	c.OnDemand, c.Provisioned = c.PerMillion(per.RCU, per.WCU)
	return c
}

// PerMillion prices a million requests of rcu read and wcu write units
// each, on demand and provisioned, at c's prices (cost says how).
func (c Cost) PerMillion(rcu, wcu float64) (onDemand, provisioned float64) {
	const secondsPerHour = 3600
	onDemand = rcu*c.ReadRequestUnit + wcu*c.WriteRequestUnit
	provisioned = 1e6 * (rcu*c.RCUHour + wcu*c.WCUHour) / secondsPerHour / c.Utilization
	return onDemand, provisioned
}

// ForBilling is the price per million requests on the billing mode a
// report's table has ("on-demand" or "provisioned").
func (c Cost) ForBilling(billing string) float64 {
	if billing == "provisioned" {
		return c.Provisioned
	}
	return c.OnDemand
}
