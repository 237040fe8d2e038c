package shape

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// Design is what Infer reads from one table of a model: the schema, one
// entity per facet with its key layouts, and the patterns the sample data
// can prove.
type Design struct {
	Name     string // the design's package name
	Table    modelfile.Table
	Schema   designs.Schema
	Sep      string // the separator composite keys are split on
	Entities []*Entity
	Patterns []*Pattern
	Notes    []string // what Infer chose that the engineer may want to check
}

// Entity is one facet: the Go type its items become.
type Entity struct {
	Facet     string
	Go        string // the Go type name
	TypeValue string // its value of the schema's type attribute
	Keys      []*KeyUse
	Vars      []*Var
	Fields    []*Field
	Samples   []map[string]types.AttributeValue
}

// KeyUse is one key attribute an entity's items carry, and its layout.
type KeyUse struct {
	Attr  string
	Index string // "" for the table's own keys
	Type  string // S, N or B
	Segs  []Seg
	Flag  string // a sparse index's key: the bool field saying the item is in it
}

// Seg is a segment of a key's layout: a constant, or a variable part.
type Seg struct {
	Const string
	Var   *Var // nil: Const
}

// Var is a variable part of one or more keys. Bound, it is also a stored
// attribute of the item (the key repeats that attribute's value).
type Var struct {
	Go    string
	Tag   string // the constant segment before it, if any
	Field *Field // the stored attribute it repeats, or nil

	values []string // what it holds in each sample, in sample order
}

// Field is a stored non-key attribute.
type Field struct {
	Attr, Go, Type string
}

// Pattern is one generated access pattern.
type Pattern struct {
	ID     designs.PatternID
	Go     string // method name
	Name   string // catalog name: "get user", "query GSI1 by Email"
	Op     designs.Operation
	Index  string // designs.MainTable or the index
	Doc    string
	Entity *Entity   // Get: the entity read
	Group  []*Entity // Query: the entities its partitions hold
	Key    *KeyUse   // Query: the partition key layout (of Group[0])
	// Keys are, on an index whose partition key is made of several
	// attributes, the layout of each (of Group[0]), in the key's order;
	// Key is the first. Nil for a key of one attribute.
	Keys []*KeyUse

	// A model's own pattern (an MCP data model's): its request, what it
	// does to the samples and its arguments, or why it was not generated.
	MCP     *mcp.Call
	Command string // the model's implementation, as written
	Result  mcp.Result
	Params  []mcp.Param
	Why     string
	// Rate is the requests per second at peak the model declares for it
	// (0: none), ItemBytes the size of its items (0: not given).
	Rate      float64
	ItemBytes int
}
