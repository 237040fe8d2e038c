// Package modelfile is a data model as a file, in the two formats the
// import reads and the export writes: NoSQL Workbench's model (ModelFile:
// tables, keys, indexes, facets and sample items in DynamoDB's JSON) and
// the DynamoDB MCP server's dynamodb_data_model.json, which Parse reads
// into the same ModelFile, keeping each table's access patterns for
// package internal/workbench/mcp to translate.
//
// Parse checks everything a model holds before anything is made of it,
// and refuses a model with a ModelError naming the JSON path and the fix:
// the key kinds and index kinds the harness does not model, sample items
// DynamoDB would refuse, an access pattern's declared traffic no traffic
// can be. Export and ExportMCP write a design back as either format.
// Nothing here infers entities or generates code: package
// internal/workbench does, from a parsed ModelFile.
package modelfile
