// Package workbench imports a data model as a design package and exports
// a design back as one. It reads two formats: NoSQL Workbench's model, the
// JSON AWS's modeller exports (a table's keys and indexes, its facets, one
// per entity, naming the key aliases and attributes each carries, and
// sample items in DynamoDB's JSON), and the DynamoDB MCP server's data
// model (dynamodb_data_model.json: tables in CreateTable's shape, sample
// items, access patterns), which it reads into the same Workbench model.
// An MCP model's access patterns are translated by package
// internal/workbench/mcp; this package places them in the catalog.
//
// Importer.Import turns a model into a design package whose specs prove the sample
// data on DynamoDB Local; Export and ExportMCP turn a design back into
// either format. The files every design has are written from the
// scaffold's templates, as new-design writes them (gen_package.go gives
// them their data); the rest is code computed from the model, written
// through the same scaffold.Source. The model's text reaches the
// generated Go only quoted (strconv.Quote), comments included, and its
// names only as identifiers goName keeps to ASCII letters and digits.
package workbench
