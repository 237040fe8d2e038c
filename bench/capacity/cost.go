package capacity

// Prices of DynamoDB Standard tables in us-east-1 (US East, N. Virginia):
// on-demand per million request units, provisioned per capacity unit-hour.
// PriceDate is when these prices took effect (the on-demand reduction of
// 1 November 2024); they were still the listed prices when checked in
// November 2026. The pages render their figures with script, so the check
// went through restatements of them (for example
// https://airbyte.com/data-engineering-resources/dynamodb-pricing).
// Sources: https://aws.amazon.com/dynamodb/pricing/on-demand/
// https://aws.amazon.com/dynamodb/pricing/provisioned/
const (
	PriceDate              = "2024-11-01"
	priceRegion            = "us-east-1"
	priceTableClass        = "standard"
	pricePerMillionRRU     = 0.125
	pricePerMillionWRU     = 0.625
	pricePerRCUHour        = 0.00013
	pricePerWCUHour        = 0.00065
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
	c := Cost{Region: priceRegion, TableClass: priceTableClass, PriceDate: PriceDate, Source: priceSource,
		Utilization: provisionedUtilisation, ReadRequestUnit: pricePerMillionRRU, WriteRequestUnit: pricePerMillionWRU,
		RCUHour: pricePerRCUHour, WCUHour: pricePerWCUHour}
	var total usage
	for _, t := range r.l.targets {
		total.rcu, total.wcu = total.rcu+t.rcu, total.wcu+t.wcu
	}
	per := r.perRequest(total)
	c.RCUPerRequest, c.WCUPerRequest = per.rcu, per.wcu
	c.OnDemand = per.rcu*pricePerMillionRRU + per.wcu*pricePerMillionWRU
	const secondsPerHour = 3600
	c.Provisioned = 1e6 * (per.rcu*pricePerRCUHour + per.wcu*pricePerWCUHour) / secondsPerHour / provisionedUtilisation
	return c
}
