// Package partiql reads a PartiQL statement, or an ExecuteTransaction's
// or a BatchExecuteStatement's statements, as the item calls DynamoDB
// runs them as, so that the endpoint (package bench/endpoint) can charge
// and limit a PartiQL call as the GetItem, Query, Scan, PutItem,
// UpdateItem, DeleteItem or transaction it amounts to.
//
// A SELECT whose WHERE names the whole primary key by equality is a
// GetItem, one that names the partition key a Query of that partition,
// any other a Scan (of the index it names); an INSERT is a PutItem of its
// item, an UPDATE and a DELETE with the whole key an UpdateItem and a
// DeleteItem of that item.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.select.html
// (a SELECT without an equality or IN on the partition key is a full table scan)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.update.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.delete.html
// (UPDATE and DELETE name one item by its whole primary key)
//
// What reaches DynamoDB Local is the client's statement as sent, and its
// answer goes back as Local gave it; the endpoint's meter sizes the call
// from the statement and its shadow of the table, as it cannot read the
// items out of a PartiQL answer (a read, an UPDATE: at the item as its
// shadow knows it, or the least a call costs). An UPDATE or DELETE
// without the whole key and an EXISTS outside a transaction, which
// DynamoDB refuses before reading an item, go to Local as sent, which
// refuses them so: a call charged nothing (the endpoint's invalid.go). In
// an ExecuteTransaction an EXISTS is the ConditionCheck of its item. A
// statement this package cannot read (a value in a form it does not
// parse) goes as sent too, and passes undecided, counted so, unless Local
// refuses it.
package partiql
