package served_test

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/served"
	"github.com/ddbharness/ddbharness/designs"
)

// observed installs obs on a client.
func observed(obs *served.Observer) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, obs.Install) }
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// itemAt is the item PK=pk, SK=sk.
func itemAt(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
}

// rowOf is s's row of pattern id and operation op, zero counts when s has
// none.
func rowOf(s served.Summary, id designs.PatternID, op string) served.PatternCalls {
	for _, p := range s.Patterns {
		if p.Pattern == id && p.Operation == op {
			return p
		}
	}
	return served.PatternCalls{Pattern: id, Operation: op}
}
