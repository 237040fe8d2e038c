package cost

import "github.com/ddbharness/ddbharness/bench/capacity/rules"

// The prices are bench/capacity/rules', where their sources and date are
// given: the model's cost and this estimate must not drift apart. Storage
// is priced past the free tier (25 GB per account and Region): a run cannot
// know what else the account stores.
const (
	PriceDate   = rules.PriceDate
	PriceRegion = rules.PriceRegion

	onDemandSource    = "https://aws.amazon.com/dynamodb/pricing/on-demand/"
	provisionedSource = "https://aws.amazon.com/dynamodb/pricing/provisioned/"

	perMillionRRU = rules.PricePerMillionRRU
	perMillionWRU = rules.PricePerMillionWRU
	perRCUHour    = rules.PricePerRCUHour
	perWCUHour    = rules.PricePerWCUHour
	perGBMonth    = rules.PricePerGBMonth
)

// Storage billing: every item and index entry counts 100 bytes of
// overhead besides its own size (source:
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html);
// a month is 730 hours, as AWS's pricing examples count it; a GB is taken
// as 10⁹ bytes, the smaller of the two in use, so as not to underestimate.
const (
	storageOverheadBytes = 100
	hoursPerMonth        = 730
	bytesPerGB           = 1e9
)
