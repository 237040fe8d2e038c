// Package fault reads and decides the endpoint's fault rules (`ddbharness
// local --fault`, `--faults FILE`): each rule aims one of DynamoDB's
// failures at the calls it matches, by operation, table, index and key,
// and fires on a count (every=N, first=N) or a seeded rate (rate=P).
//
// A rule is words of the form name=value, separated by spaces:
//
//	op=TransactWriteItems table=Orders key=PK:ORDER#7 every=3 error=TransactionConflict
//
// The package reads a request's body only as far as matching needs (its
// tables, index and keys); what a fired rule answers on the wire is the
// endpoint's, in the words bench/emulate writes DynamoDB's refusals in.
package fault
