// Package meter is bench's instrumented client: a designs.DB that asks
// DynamoDB for the capacity of every call, keeps a shadow of the table's
// items, and reports each call as a pricing.Observation (the items it
// read, each item's image before and after a write) for the capacity
// ledger. It knows nothing of pacing: the load engine (bench/engine) hands
// its driver whatever designs.DB it is given.
package meter
