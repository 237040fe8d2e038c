// Package workbench reads and writes NoSQL Workbench data models, the JSON
// AWS's modeller exports: a table's keys and indexes, its facets (one per
// entity, naming the key aliases and attributes each carries) and sample
// items in DynamoDB's JSON. Import turns a model into a design package whose
// specs prove the sample data on DynamoDB Local; Export turns a design back
// into a model Workbench opens. The files every design has are written
// from the scaffold's templates, as new-design writes them (gen_package.go
// gives them their data); the rest is code computed from the model,
// written through the same scaffold.Source. The model's text reaches the generated Go
// only quoted (strconv.Quote), comments included, and its names only as
// identifiers goName keeps to ASCII letters and digits.
package workbench
