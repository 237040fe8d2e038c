// Package ledger gathers the capacity a run's DynamoDB calls would take of
// real DynamoDB, as the run goes: bench's instrumented client reports each
// call as a pricing.Observation, and a Ledger prices it by AWS's rules
// (pricing.Account) and keeps the charges per table or index, partition
// key and second, per pattern beside DynamoDB Local's own figures, and the
// sizes of the items and item collections the run wrote. Its memory does
// not grow with the calls. A shard writes its ledger as a LedgerFile, and
// MergeLedgers sums shards' files as if one machine had run them.
//
// The ledger only records; package capacity reads it after the run (under
// Lock, through the accessors in read.go) and models where the traffic
// would throttle.
package ledger
