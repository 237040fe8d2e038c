// Package cost estimates what a bench run would cost on real DynamoDB before
// anything is created there, so that a run above the user's limit can be
// refused. It counts the calls the pacer asks for and splits them over the
// mix by weight; seeds the scenario's driver into an in-memory table as the
// design lint does; and prices every request by DynamoDB's unit rules
// (pricing.Account): the seed's own writes, and each step's calls,
// run through the driver on the seeded table in memory where it serves
// them (item reads and writes, transactions included). Then it adds the
// data's storage and, for a provisioned table, its hourly capacity.
//
// The in-memory table serves no Query, Scan, BatchGetItem or
// TransactGetItems, so a pattern that needs one is reckoned from the
// seeded sizes instead, by its main operation:
//
//   - A Query reads a mean partition of its table or index up to one 1 MB
//     page (its first MaxItems entries when declared; every page when the
//     pattern reads them all); a Scan its whole table or index, or one page
//     when it hands out pages. Table reads are taken strongly consistent,
//     index reads eventually consistent.
//   - A read by key reads an item of the seed's mean size, strongly
//     consistent; a write writes one to the table and to every index, GSIs
//     and LSIs alike, the table's part doubled in a transaction (an upper
//     bound for an item that keeps its index keys). A batch or transaction
//     handles MaxActions or MaxItems items, else as many as the API allows.
//
// Real keys, items and their growth over a long run are known only once
// the run makes its calls: the figures are an estimate.
package cost
