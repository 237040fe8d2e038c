package fault

import (
	"slices"
	"strings"
)

// Kind is what a fired rule makes of a call.
type Kind string

// The kinds of fault, spelled as a rule's error= names them: DynamoDB's
// exceptions and cancellation reasons, a batch handed back in part, its
// 5xx answers, and a connection reset once the call was served.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
// (the exceptions, by HTTP status: 400 for throughput and conflicts, 500
// InternalServerError, 503 ServiceUnavailable)
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
// (TransactionCanceledException: a reason per action, None for the others)
const (
	// Latency only: the call is served as usual after the rule's latency.
	None Kind = ""
	// ThrottlingException (HTTP 400), with throttlingReasons: an on-demand
	// table's or GSI's partition over its throughput.
	Throttling Kind = "ThrottlingException"
	// ProvisionedThroughputExceededException (HTTP 400), with
	// ThrottlingReasons: a provisioned table's or GSI's throughput.
	Provisioned Kind = "ProvisionedThroughputExceededException"
	// RequestLimitExceeded (HTTP 400), with ThrottlingReasons: the
	// account's per-table quota.
	RequestLimit Kind = "RequestLimitExceeded"
	// TransactionConflict: a transaction cancelled (TransactionCanceledException,
	// reason TransactionConflict for the actions aimed at, None for the
	// others); a PutItem, UpdateItem or DeleteItem refused with
	// TransactionConflictException.
	Conflict Kind = "TransactionConflict"
	// ThrottlingError: a transaction cancelled, reason ThrottlingError for
	// the actions aimed at, None for the others.
	ThrottlingError Kind = "ThrottlingError"
	// UnprocessedItems: a BatchWriteItem's requests aimed at handed back
	// unprocessed, the others written.
	UnprocessedItems Kind = "UnprocessedItems"
	// UnprocessedKeys: a BatchGetItem's keys aimed at handed back
	// unprocessed, the others read.
	UnprocessedKeys Kind = "UnprocessedKeys"
	// InternalServerError: HTTP 500, nothing done.
	Internal Kind = "InternalServerError"
	// ServiceUnavailable: HTTP 503, nothing done.
	Unavailable Kind = "ServiceUnavailable"
	// ConnectionReset: the call is served (a write is applied), then the
	// connection is reset before the answer: the client cannot tell
	// whether it happened.
	Reset Kind = "ConnectionReset"
)

// Ops are the data-plane operations a rule may name.
var Ops = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
	"TransactGetItems", "TransactWriteItems", "ExecuteStatement", "ExecuteTransaction", "BatchExecuteStatement"}

// kinds are the error= values, in the order usage lists them, with the
// operations each can meet (nil: any).
var kinds = []struct {
	kind Kind
	ops  []string
}{
	{Throttling, nil},
	{Provisioned, nil},
	{RequestLimit, nil},
	{Conflict, []string{"TransactWriteItems", "TransactGetItems", "ExecuteTransaction", "PutItem", "UpdateItem", "DeleteItem"}},
	{ThrottlingError, []string{"TransactWriteItems", "TransactGetItems", "ExecuteTransaction"}},
	{UnprocessedItems, []string{"BatchWriteItem"}},
	{UnprocessedKeys, []string{"BatchGetItem"}},
	{Internal, nil},
	{Unavailable, nil},
	{Reset, nil},
}

// kindNames lists the error= values, for messages.
func kindNames() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k.kind)
	}
	return strings.Join(names, ", ")
}

// opsOf is the operations kind k can meet; nil for any.
func opsOf(k Kind) []string {
	for _, c := range kinds {
		if c.kind == k {
			return c.ops
		}
	}
	return nil
}

// Meets reports whether a call of op can meet kind k.
func (k Kind) Meets(op string) bool {
	ops := opsOf(k)
	return ops == nil || slices.Contains(ops, op)
}

// Transaction reports whether op is a transaction, whose faults are
// cancellations with a reason per action.
func Transaction(op string) bool {
	return op == "TransactWriteItems" || op == "TransactGetItems" || op == "ExecuteTransaction"
}

// partiQL reports whether op's items are in statements, which rules do
// not read: such calls are matched by op alone.
func partiQL(op string) bool {
	return op == "ExecuteStatement" || op == "ExecuteTransaction" || op == "BatchExecuteStatement"
}
