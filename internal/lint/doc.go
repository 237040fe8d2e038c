// Package lint checks a design against DynamoDB's limits before any load
// runs: partition keys that concentrate the data, LSIs on item collections
// that grow without bound, items that patterns grow in place, single items
// most calls of a scenario's write step write, transactions,
// unpaged queries, scans and projections wider than their readers need.
// What the schema and the catalog declare is checked as declared; what
// depends on data (key cardinality, item and collection sizes) is measured
// on the design's own fixtures, seeded in memory (memtable.Memory); hot
// items, by calling the write steps of every scenario of the design on its
// own seeded pool, with keys drawn as bench draws them, and listing each
// step it could not call.
package lint
