package capacity

import "github.com/ddbharness/ddbharness/bench/ledger"

// Prices of DynamoDB Standard tables in us-east-1 (US East, N. Virginia):
// on-demand per million request units, provisioned per capacity unit-hour,
// storage per GB-month past the free tier. The model's cost and the cost
// gate's estimate (bench/cost) both read them here.
// PriceDate is when these prices took effect (the on-demand reduction of
// 1 November 2024); they were still the listed prices when checked in
// November 2026. The pages render their figures with script, so the check
// went through restatements of them (for example
// https://airbyte.com/data-engineering-resources/dynamodb-pricing).
// Sources: https://aws.amazon.com/dynamodb/pricing/on-demand/
// https://aws.amazon.com/dynamodb/pricing/provisioned/
const (
	PriceDate              = "2024-11-01"
	PriceRegion            = "us-east-1"
	priceTableClass        = "standard"
	PricePerMillionRRU     = 0.125
	PricePerMillionWRU     = 0.625
	PricePerRCUHour        = 0.00013
	PricePerWCUHour        = 0.00065
	PricePerGBMonth        = 0.25
	priceSource            = "https://aws.amazon.com/dynamodb/pricing/"
	provisionedUtilisation = 0.7
)

// cost prices the mix per million requests. On demand, each request pays
// its units. Provisioned, the table and its GSIs carry throughput for the
// mix at 70 % utilisation (the target utilisation of the guide's auto
// scaling example), so a request costs its units' share of an hour of
// capacity, divided by that utilisation.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
func (r *run) cost() Cost {
	c := Cost{Region: PriceRegion, TableClass: priceTableClass, PriceDate: PriceDate, Source: priceSource,
		Utilization: provisionedUtilisation, ReadRequestUnit: PricePerMillionRRU, WriteRequestUnit: PricePerMillionWRU,
		RCUHour: PricePerRCUHour, WCUHour: PricePerWCUHour}
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
