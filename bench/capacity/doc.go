// Package capacity gathers the capacity a run's DynamoDB calls would take
// of real DynamoDB, attributed to table and index partitions, and models
// where that traffic would throttle.
//
// Bench's instrumented client reports each call as a pricing.Observation;
// a Ledger prices it by AWS's rules (pricing.Account) and gathers the charges per
// table or index, partition key and second, beside DynamoDB Local's own
// figures. After the run, Model.Analyze turns the ledger into a Report:
// hot keys, the request rate at which the first limit is reached, the
// throttling forecast at a target rate, item and item-collection growth,
// cost, and one-sentence findings. Every AWS rule and number the package
// applies cites its documentation beside the code.
package capacity
