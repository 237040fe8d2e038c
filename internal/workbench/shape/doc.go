// Package shape infers a design's shape from one table of a data model
// (a NoSQL Workbench model or a DynamoDB MCP server's, as package
// internal/workbench/modelfile reads it): Infer finds the entities of its
// sample items (its facets, or item kinds told apart by a type attribute
// or by the words of their keys), each entity's key layouts, variable key
// parts and stored fields, and the catalog of access patterns the samples
// can prove: a get per entity, a query per partition key layout of the
// table and of each index, and an MCP model's own patterns, translated by
// package internal/workbench/mcp and run on the samples for the results
// their specs expect. A model without sample items gets some made from its
// keys and aliases (nosamples.go).
//
// The Design it returns is what package internal/workbench writes as a
// design package; Grow is how the generated Grown copies a sample, for
// tests that export copies and infer them again.
package shape
