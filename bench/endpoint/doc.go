// Package endpoint serves DynamoDB's JSON protocol on an HTTP handler in
// front of DynamoDB Local, with the bench's limits and transaction
// conflicts (package emulate) on every data-plane call, so that a service
// in any language, pointed at it with AWS_ENDPOINT_URL_DYNAMODB, meets
// throttling and conflicts as DynamoDB answers them
// (`ddbharness local --limits`).
//
// A data-plane request (GetItem, PutItem, UpdateItem, DeleteItem, Query,
// Scan, BatchGetItem, BatchWriteItem, TransactGetItems,
// TransactWriteItems, ExecuteStatement, ExecuteTransaction,
// BatchExecuteStatement) is read into
// the SDK's input and sent to DynamoDB Local with its table's emulator
// installed, as the bench sends a pattern's calls: the same middleware
// decides it, and bench/meter charges what it consumed by AWS's rules (not
// DynamoDB Local's reported units). It goes through a short stack of
// middleware (short.go) rather than the SDK client's: the SDK's
// validation, serializer and deserializer, with the emulator's and the
// endpoint's own, and no retries (the end client retries). What reaches Local is the client's own
// body, byte for byte, but for what the meter asks besides where the
// client asked for none of it (old images, INDEXES capacity, key
// attributes in a projection); the answer is Local's own bytes with
// exactly that taken out again, so it is the answer Local gives the
// request as sent (package askmore, editing the JSON as text with
// package jsontext). A value Local refuses (ReturnValues UPDATED_OLD on a
// PutItem, an unknown word) goes as sent, and is refused. The endpoint
// writes only its own decisions: the emulator's refusal
// (ThrottlingException or ProvisionedThroughputExceededException with
// ThrottlingReasons, TransactionCanceledException with
// CancellationReasons, TransactionConflictException), the UnprocessedItems
// or UnprocessedKeys of a batch it admitted in part, HTTP 413 for a
// body over 16 MiB, and HTTP 500 for an answer of Local's over MaxAnswer,
// which it does not read; and what a fault rule (package fault, faults.go)
// answers, in the same words.
//
// Fault rules (`local --fault`, Config.Faults, Handler.Aim) are decided
// before the emulator: a call a rule answers with an error reaches
// neither the emulator nor DynamoDB Local; one a rule lets on (latency, a
// connection reset after the call, the part of a batch a rule keeps) goes
// through the emulator as any call.
//
// Each table's limits are learnt from DynamoDB Local's DescribeTable at
// its first call, and again after a CreateTable, UpdateTable or
// DeleteTable passes; warm throughput and the on-demand maximum come from
// the client's own CreateTable or UpdateTable where Local does not keep
// them. A table's learnt state (its buckets, splits, growth) starts again
// then. Each GSI has its own limits: its provisioned units, warm
// throughput and maximum, so a GSI provisioned below its table refuses the
// table's writes at its own units.
//
// PartiQL's ExecuteStatement and ExecuteTransaction are decided as the
// calls their statements amount to (package partiql), the client's request
// being what is sent. A batch or transaction that names more than one
// table, and a BatchExecuteStatement, are decided in parts (joint.go):
// each table's share (each statement) by its own table's emulator, and
// metered on its own table; what they admit reaches Local as one request,
// the client's less what was refused. A batch's refused items come back
// as their table's UnprocessedItems or UnprocessedKeys; a transaction one
// table refuses is cancelled whole, charging the others nothing; a
// statement refused is answered in its place among the Responses.
//
// Passed through as sent: every other operation (tables, TTL, tags,
// backups, streams); and, counted apart as undecided (Handler.Undecided),
// the data-plane calls the endpoint cannot decide: an ExecuteStatement,
// ExecuteTransaction or BatchExecuteStatement statement it cannot read
// that Local runs (one Local refuses as invalid, as DynamoDB refuses an
// UPDATE or DELETE without the whole key, is a call charged nothing; a
// batch's statement that names no single item is answered by Local in
// its place). A table's ARN given as its name is the table: decided on
// its budget.
// Also passed through: a request the SDK's input cannot hold (an unknown
// member, a value of the wrong type: Local answers it in its own words),
// and a call to a table Local does not know. A write that passes through
// is not seen by the meter's shadow of the table, so a later
// transaction's capacity (its images come from the shadow) may be sized
// on an older item.
package endpoint
