// Package workbench reads and writes NoSQL Workbench data models, the JSON
// AWS's modeller exports: a table's keys and indexes, its facets (one per
// entity, naming the key aliases and attributes each carries) and sample
// items in DynamoDB's JSON. Import turns a model into a design package whose
// specs prove the sample data on DynamoDB Local; Export turns a design back
// into a model Workbench opens.
package workbench
