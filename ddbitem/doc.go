// Package ddbitem holds what an item is to DynamoDB, in one place for every
// part of the harness that needs it (fixtures, lint, the capacity model and
// bench's instrumented client): the item type and its identity, its size as
// DynamoDB bills it, the entry an index holds for it, equality with numbers
// compared by value, update and condition expressions evaluated as DynamoDB
// evaluates them, and DynamoDB's limits. A table in memory that folds
// every kind of write with these rules is ddbitem/memtable.
//
// It knows nothing of designs or patterns: a table is described by a
// Schema, which designs.Schema resolves to with ItemSchema.
package ddbitem
