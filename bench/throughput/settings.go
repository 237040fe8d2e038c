package throughput

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Settings is how a run's tables and GSIs are configured beyond their
// schema: what the limits emulator (bench/emulate) runs the engine with,
// and what the capacity model (bench/capacity) carries to replay the run
// through the same engine. Both build each space's Config with ConfigOf,
// so that the replay cannot drift from what the emulator did.
type Settings struct {
	// Scale multiplies every limit; 0 means 1 (real DynamoDB's).
	Scale float64
	// WarmReads and WarmWrites are an on-demand table's warm throughput
	// (and each GSI's), in units per second; 0 takes a new table's (12,000
	// and 4,000).
	WarmReads, WarmWrites float64
	// MaxReads and MaxWrites are an on-demand table's maximum throughput
	// (OnDemandThroughput), and each GSI's; 0: none.
	MaxReads, MaxWrites float64
	// SwitchedRCU and SwitchedWCU are the most the table (and each GSI)
	// was provisioned with before it was switched to on-demand; 0: created
	// on demand. Such a space starts serving at least that (Warm), on the
	// partitions it had (OnDemandPartitions).
	SwitchedRCU, SwitchedWCU float64
	// Bytes is the table's data, for the partition count of the table and
	// of each GSI (a GSI's own data is not known apart: inferred).
	Bytes int64
	// Partitions, when set, is each table's and GSI's partition count
	// instead of the one its throughput and data give, fixed: an on-demand
	// space that grows does not split them.
	Partitions int
	// PlacementSeed salts the hash that places partition key values on
	// partitions: where AWS places a key is not public, and each seed is
	// another draw (0: the default one).
	PlacementSeed uint64
	// IsolateAfter is DefaultIsolateAfter when zero; negative: never.
	IsolateAfter time.Duration
	// Indexes is each GSI's own throughput, by index name, where it is
	// not its table's (IndexConfigOf); a GSI not named takes the table's.
	Indexes map[string]IndexThroughput
}

// IndexThroughput is one GSI's own throughput; a zero field takes the
// table's. A GSI has its own ProvisionedThroughput, WarmThroughput and
// OnDemandThroughput, set on CreateTable and UpdateTable, and a GSI
// provisioned below its table throttles the table's writes at its own
// units (back-pressure).
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GlobalSecondaryIndex.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html
type IndexThroughput struct {
	// RCU and WCU are a provisioned GSI's units.
	RCU, WCU float64
	// WarmReads, WarmWrites, MaxReads and MaxWrites are an on-demand
	// GSI's warm throughput and maximum, as Settings' own.
	WarmReads, WarmWrites, MaxReads, MaxWrites float64
}

// ConfigOf is the engine's Config of a table (or a GSI with no
// throughput of its own) of schema s under settings st: its billing and
// provisioned throughput from the schema, the rest from st.
func ConfigOf(st Settings, s designs.Schema) Config {
	return Config{Settings: st, Provisioned: s.Billing == types.BillingModeProvisioned, RCU: float64(s.RCU), WCU: float64(s.WCU)}
}

// IndexConfigOf is the engine's Config of GSI name of schema s under
// settings st: the table's (ConfigOf), with what st.Indexes sets for it.
func IndexConfigOf(st Settings, s designs.Schema, name string) Config {
	c := ConfigOf(st, s)
	it, ok := st.Indexes[name]
	if !ok {
		return c
	}
	c.RCU, c.WCU = or(it.RCU, c.RCU), or(it.WCU, c.WCU)
	c.WarmReads, c.WarmWrites = or(it.WarmReads, c.WarmReads), or(it.WarmWrites, c.WarmWrites)
	c.MaxReads, c.MaxWrites = or(it.MaxReads, c.MaxReads), or(it.MaxWrites, c.MaxWrites)
	return c
}
