package endpoint

import (
	"encoding/json"
	"net/http"
	"strings"
)

// A PartiQL call the endpoint does not map to items (an UPDATE or DELETE
// without the whole key, an EXISTS outside a transaction, a transaction's
// SELECT without the whole key, a statement it cannot read) goes to
// DynamoDB Local as sent. When Local refuses it as invalid, DynamoDB
// refuses it so before it reads an item, and nothing is left to decide:
// it is a call, charged nothing. Only what Local accepts is undecided.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.update.html
// (the condition must resolve to a single primary key value)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.multiplestatements.transactions.html
// (EXISTS checks one item, in a transaction of writes)
// Charged nothing: inferred, AWS does not say what a refused statement
// consumes.

// invalidPartiQL reports whether Local's answer (status, body) refuses a
// PartiQL call as invalid: a ValidationException, or a transaction
// cancelled for a statement's ValidationError and nothing else (Local
// names it in its message, with no reasons, where a statement names no
// single item).
func invalidPartiQL(status int, body []byte) bool {
	if status != http.StatusBadRequest {
		return false
	}
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"Message"`
		Reasons []struct {
			Code string `json:"Code"`
		} `json:"CancellationReasons"`
	}
	if json.Unmarshal(body, &e) != nil {
		return false
	}
	switch e.Type[strings.LastIndexByte(e.Type, '#')+1:] {
	case "ValidationException":
		return true
	case "TransactionCanceledException":
		if len(e.Reasons) == 0 {
			return strings.HasPrefix(e.Message, "ValidationError ")
		}
		invalid := false
		for _, r := range e.Reasons {
			switch r.Code {
			case "ValidationError":
				invalid = true
			case "None":
			default:
				return false
			}
		}
		return invalid
	}
	return false
}
