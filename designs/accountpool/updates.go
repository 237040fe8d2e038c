package accountpool

import (
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Status-set updates. Each also sets the item's type, so that a status item
// an ADD or DELETE creates is typed like the rest.
func addIDs(ids ...string) expression.UpdateBuilder {
	return expression.Set(expression.Name(attrType), expression.Value(typeStatus)).
		Add(expression.Name(attrData), expression.Value(types.AttributeValueMemberSS{Value: ids}))
}

func deleteIDs(ids ...string) expression.UpdateBuilder {
	return expression.Set(expression.Name(attrType), expression.Value(typeStatus)).
		Delete(expression.Name(attrData), expression.Value(types.AttributeValueMemberSS{Value: ids}))
}

// Conditions shared by the patterns.
var (
	noCond    expression.ConditionBuilder
	notLeased = Schema.IsStored().And(expression.Name(attrData).NotEqual(expression.Value(StateLeased)))
)
