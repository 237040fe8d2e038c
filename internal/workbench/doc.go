// Package workbench imports a data model as a design package: a NoSQL
// Workbench model, or a DynamoDB MCP server's data model, both read by
// package internal/workbench/modelfile into one ModelFile. From a table's
// sample items it infers the entities and their key layouts, makes the
// catalog (a get per entity, a query per index and partition layout, and
// an MCP model's own access patterns, translated by package
// internal/workbench/mcp), and writes the package.
//
// Importer.Import turns a model into a design package whose specs prove
// the sample data on DynamoDB Local. The files every design has are
// written from the scaffold's templates, as new-design writes them
// (gen_package.go gives them their data); the rest is code computed from
// the model, written through the same scaffold.Source. The model's text
// reaches the generated Go only quoted (strconv.Quote), comments
// included, and its names only as identifiers goName keeps to ASCII
// letters and digits.
package workbench
