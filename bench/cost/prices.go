package cost

// Prices of DynamoDB Standard tables in us-east-1 (US East, N. Virginia),
// as listed on AWS's pricing pages. PriceDate is when they took effect: the
// on-demand reduction of 1 November 2024 halved the request prices (from
// $0.25 and $1.25 per million). The pages render their figures with
// script; restatements of them, such as
// https://airbyte.com/data-engineering-resources/dynamodb-pricing, still
// gave these as current when checked on 23 November 2026. Storage is
// priced past the free tier (25 GB per account and Region): a run cannot
// know what else the account stores.
// Sources: https://aws.amazon.com/dynamodb/pricing/on-demand/
// https://aws.amazon.com/dynamodb/pricing/provisioned/
// (bench/capacity's cost figures restate the same prices.)
const (
	PriceDate   = "2024-11-01"
	PriceRegion = "us-east-1"

	onDemandSource    = "https://aws.amazon.com/dynamodb/pricing/on-demand/"
	provisionedSource = "https://aws.amazon.com/dynamodb/pricing/provisioned/"

	perMillionRRU = 0.125   // on demand: dollars per million read request units
	perMillionWRU = 0.625   // on demand: dollars per million write request units
	perRCUHour    = 0.00013 // provisioned: dollars per read capacity unit-hour
	perWCUHour    = 0.00065 // provisioned: dollars per write capacity unit-hour
	perGBMonth    = 0.25    // either mode: dollars per GB-month of table and index data
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
