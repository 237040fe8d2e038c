// Package pricing prices one DynamoDB call in capacity units, by AWS's
// rules: what a read, a write or a transaction takes of the table and of
// each index, on the partition key it touched (Account).
//
// It is a rule of DynamoDB's, not of a run: the lint, the cost gate, the
// instrumented client, the limits emulator and the capacity ledger all
// price calls here. An Observation is what one call did, as bench's
// instrumented client or the lint's probe saw it. Every rule cites its
// source beside the code, and examples_test.go reproduces AWS's worked
// examples and public captures of real DynamoDB to the unit.
package pricing
