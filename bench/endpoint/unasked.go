package endpoint

import (
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// unasked is an error answer without the item images the instrumented
// client asked for on a failed condition (it asks for the old image of
// every conditional write, bench/meter) where the client did not: the
// client gets the error DynamoDB would have given its own request.
func unasked(in any, body []byte) []byte {
	var e map[string]json.RawMessage
	if json.Unmarshal(body, &e) != nil {
		return body
	}
	var kind string
	json.Unmarshal(e["__type"], &kind)
	_, kind, _ = strings.Cut(kind, "#")
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld
	switch in := in.(type) {
	case *dynamodb.PutItemInput:
		return without(e, body, kind == "ConditionalCheckFailedException" && in.ReturnValuesOnConditionCheckFailure != allOld)
	case *dynamodb.UpdateItemInput:
		return without(e, body, kind == "ConditionalCheckFailedException" && in.ReturnValuesOnConditionCheckFailure != allOld)
	case *dynamodb.DeleteItemInput:
		return without(e, body, kind == "ConditionalCheckFailedException" && in.ReturnValuesOnConditionCheckFailure != allOld)
	case *dynamodb.TransactWriteItemsInput:
		if kind != "TransactionCanceledException" {
			return body
		}
		var reasons []map[string]json.RawMessage
		if json.Unmarshal(e["CancellationReasons"], &reasons) != nil {
			return body
		}
		ws := (ddbitem.Schema{}).TransactWrites(in.TransactItems)
		for i := range reasons {
			if i < len(ws) && !ws[i].OldOnFailure {
				delete(reasons[i], "Item")
			}
		}
		e["CancellationReasons"], _ = json.Marshal(reasons)
		b, _ := json.Marshal(e)
		return b
	}
	return body
}

func without(e map[string]json.RawMessage, body []byte, strip bool) []byte {
	if _, ok := e["Item"]; !ok || !strip {
		return body
	}
	delete(e, "Item")
	b, _ := json.Marshal(e)
	return b
}
