// Package mcp translates the access patterns of a DynamoDB MCP server's
// data model (dynamodb_data_model.json), each carried as one AWS CLI
// command: the command read into a Call (ParseCommand), what the call
// does to a table's sample items as DynamoDB would (Expect), and the Go
// function and Ginkgo spec a design package gets for it (Func, Spec).
// internal/workbench reads the rest of the model (its tables and sample
// items) and calls this package for each access pattern; nothing here
// knows a Workbench model or a design being generated. A model's text
// reaches the generated Go only quoted (strconv.Quote).
package mcp
