// Package endpoint serves DynamoDB's JSON protocol on an HTTP handler in
// front of DynamoDB Local, with the bench's limits and transaction
// conflicts (package emulate) on every data-plane call, so that a service
// in any language, pointed at it with AWS_ENDPOINT_URL_DYNAMODB, meets
// throttling and conflicts as DynamoDB answers them
// (`ddbharness local --limits`).
//
// A data-plane request (GetItem, PutItem, UpdateItem, DeleteItem, Query,
// Scan, BatchGetItem, BatchWriteItem, TransactGetItems,
// TransactWriteItems) is read into the SDK's input and sent through an
// SDK client of DynamoDB Local with its table's emulator installed, as
// the bench sends a pattern's calls: the same middleware decides it, and
// bench/meter charges what it consumed by AWS's rules (not DynamoDB
// Local's reported units), asking Local for the images it needs and
// taking them out of the answer again. The SDK's retryer is off: the end
// client retries. The answer is the SDK's output written back by the
// SDK's own serializer, or the error answer as it came: DynamoDB Local's,
// or the emulator's refusal (ThrottlingException or
// ProvisionedThroughputExceededException with ThrottlingReasons,
// TransactionCanceledException with CancellationReasons,
// TransactionConflictException), and UnprocessedItems or UnprocessedKeys
// in a batch's answer.
//
// Each table's limits are learnt from DynamoDB Local's DescribeTable at
// its first call, and again after a CreateTable, UpdateTable or
// DeleteTable passes; warm throughput and the on-demand maximum come from
// the client's own CreateTable or UpdateTable where Local does not keep
// them. A table's learnt state (its buckets, splits, growth) starts again
// then.
//
// Not emulated, passed through to DynamoDB Local as sent: every other
// operation (tables, TTL, tags, backups, streams, PartiQL's
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction); a
// batch or transaction that spans tables; a request the SDK's input
// cannot hold (an unknown member, a value of the wrong type: Local
// answers it in its own words); and a call to a table Local does not
// know. A GSI's own provisioned throughput is not read: the emulator
// gives each GSI its table's. A write that passes through is not seen by
// the meter's shadow of the table, so a later transaction's capacity (its
// images come from the shadow) may be sized on an older item.
package endpoint
