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
}

// ConfigOf is the engine's Config of a table or GSI of schema s under
// settings st: its billing and provisioned throughput from the schema
// (a provisioned table's GSIs take the table's), the rest from st.
func ConfigOf(st Settings, s designs.Schema) Config {
	return Config{Settings: st, Provisioned: s.Billing == types.BillingModeProvisioned, RCU: float64(s.RCU), WCU: float64(s.WCU)}
}
