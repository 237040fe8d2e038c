// Package workbench imports a data model as a design package: a NoSQL
// Workbench model, or a DynamoDB MCP server's data model, both read by
// package internal/workbench/modelfile into one ModelFile. Package
// internal/workbench/shape infers each table's design from its sample
// items (the entities, their key layouts and the catalog); this package
// writes the design package from that shape (Files) and is the import's
// one writer (Importer).
//
// Importer.Import turns a model into a design package whose specs prove
// the sample data on DynamoDB Local. The files every design has are
// written from the scaffold's templates, as new-design writes them
// (gen_package.go gives them their data); the rest is code computed from
// the model, written through the same scaffold.Source. The model's text
// reaches the generated Go only quoted (strconv.Quote), comments
// included, and its names only as identifiers shape.GoName keeps to
// letters and digits.
package workbench
