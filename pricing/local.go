package pricing

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// WholeCall is the target LocalUnits files a call's figure under when
// DynamoDB Local gave it without a per-table and per-index breakdown: the
// whole call's units.
const WholeCall = "*"

// LocalUnits sums DynamoDB Local's ConsumedCapacity per target: the table
// arm and each index arm, or only the total (under WholeCall) when no
// breakdown came. It is nil when the call carried no figure.
func LocalUnits(o Observation) map[string]float64 {
	if len(o.Local) == 0 {
		return nil
	}
	out := map[string]float64{}
	if !broken(o.Local) {
		for _, cc := range o.Local {
			if cc.CapacityUnits != nil {
				out[WholeCall] += *cc.CapacityUnits
			}
		}
		return out
	}
	for _, cc := range o.Local {
		indexed := 0.0
		for name, c := range cc.GlobalSecondaryIndexes {
			out[name] += capUnits(c)
			indexed += capUnits(c)
		}
		for name, c := range cc.LocalSecondaryIndexes {
			out[name] += capUnits(c)
			indexed += capUnits(c)
		}
		switch {
		case cc.Table != nil:
			out[designs.MainTable] += capUnits(*cc.Table)
		case cc.CapacityUnits != nil:
			out[designs.MainTable] += *cc.CapacityUnits - indexed
		}
	}
	return out
}

// broken reports whether Local broke its figure down per table and index.
func broken(cs []types.ConsumedCapacity) bool {
	for _, cc := range cs {
		if cc.Table != nil || len(cc.GlobalSecondaryIndexes) > 0 || len(cc.LocalSecondaryIndexes) > 0 {
			return true
		}
	}
	return false
}

// capUnits is a Capacity's total units, from its read and write figures
// when the total is missing.
func capUnits(c types.Capacity) float64 {
	if c.CapacityUnits != nil {
		return *c.CapacityUnits
	}
	var u float64
	if c.ReadCapacityUnits != nil {
		u += *c.ReadCapacityUnits
	}
	if c.WriteCapacityUnits != nil {
		u += *c.WriteCapacityUnits
	}
	return u
}
