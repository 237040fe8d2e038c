// Package capacity models where a run's traffic would throttle on real
// DynamoDB, and what it would cost, from the run's ledger (package
// bench/ledger, which gathers the charges as the run goes).
//
// After the run, Model.Analyze turns the ledger into a Report: hot keys,
// the request rate at which the first limit is reached, the throttling
// forecast at a target rate, the ledger replayed through bench/throughput,
// item and item-collection growth, and cost, each figure with the Source
// of the rules it applies. The AWS rules and numbers it applies, each
// with its documentation, are package bench/capacity/rules. Package
// bench/capacity/findings words a Report for people (Report.Findings).
package capacity
