package designs

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// PatternID names an access pattern inside its design ("AP-05"). Specs carry
// it as a Ginkgo label, scenarios and reports refer to patterns by it.
type PatternID string

// Operation is the DynamoDB API call a pattern is built on.
type Operation string

// The operations patterns use.
const (
	GetItem            Operation = "GetItem"
	PutItem            Operation = "PutItem"
	UpdateItem         Operation = "UpdateItem"
	DeleteItem         Operation = "DeleteItem"
	Query              Operation = "Query"
	Scan               Operation = "Scan"
	BatchGetItem       Operation = "BatchGetItem"
	BatchWriteItem     Operation = "BatchWriteItem"
	TransactGetItems   Operation = "TransactGetItems"
	TransactWriteItems Operation = "TransactWriteItems"
)

// MainTable is the Pattern.Index of a pattern served by the base table.
const MainTable = "main-table"

// Index is a secondary index. PK is required for a GSI; an LSI shares the
// table's partition key, so its PK is left empty. Projection defaults to ALL.
//
// A GSI's partition key, and its sort key, may each be made of up to four
// attributes (a multi-attribute key), each of its own type (Schema.Types):
// list them in order in PKs and SKs, in place of PK and SK. An item that
// lacks any of them is not in the index; a Query gives every partition key
// attribute by equality and the sort key attributes left to right (see
// KeyQuery).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
type Index struct {
	Name       string
	PK, SK     string
	PKs, SKs   []string
	Projection types.ProjectionType
	NonKey     []string // projected attributes when Projection is INCLUDE
}

// PartitionAttrs is the attributes of ix's partition key, in order (none
// for an LSI, whose partition key is its table's).
func (ix Index) PartitionAttrs() []string { return ix.resolved().PartitionAttrs() }

// SortAttrs is the attributes of ix's sort key, in order.
func (ix Index) SortAttrs() []string { return ix.resolved().SortAttrs() }

// resolved is ix as package ddbitem reads an index's key: PK and SK the
// first attribute of each.
func (ix Index) resolved() ddbitem.Index {
	r := ddbitem.Index{Name: ix.Name, PK: ix.PK, SK: ix.SK, PKs: ix.PKs, SKs: ix.SKs, NonKey: ix.NonKey, Projection: ix.Projection}
	if len(ix.PKs) > 0 {
		r.PK = ix.PKs[0]
	}
	if len(ix.SKs) > 0 {
		r.SK = ix.SKs[0]
	}
	return r
}

// Schema is one DynamoDB table. Key attributes are strings unless Types says
// otherwise. Billing defaults to on-demand; RCU and WCU apply to provisioned
// tables (and to each of their GSIs).
type Schema struct {
	PK, SK   string
	Types    map[string]types.ScalarAttributeType
	GSIs     []Index
	LSIs     []Index
	Billing  types.BillingMode
	RCU, WCU int64
	// TypeAttribute names the attribute each item keeps its entity type
	// in ("EntityType"), for the lint's labels and the export's facets;
	// empty: see ItemType.
	TypeAttribute string
}

// Pattern is one catalog entry: an access pattern of the design doc.
type Pattern struct {
	ID    PatternID
	Name  string    // short, as the doc names it: "view client and recent invoices"
	Doc   string    // what the doc asks of it, restated
	Op    Operation // the call that serves it (the main one for multi-step patterns)
	Index string    // MainTable or the index name
	// Command is the request as the model the design was imported from
	// gave it (an MCP data model's AWS CLI implementation), which
	// export-model writes back; empty for a pattern written in Go.
	Command string

	// Lint metadata, all optional: what the design lint (internal/lint)
	// cannot see from the schema or from seeded items, declared next to
	// the pattern it describes so that a change to one shows in the other.

	// Grows names the attributes the pattern appends to in place (list or
	// set ADD, list_append): such an item grows toward the 400 KB limit.
	Grows []string
	// MaxActions is the action count of the pattern's largest transaction
	// for any accepted input; 0 means not a transaction or not declared.
	MaxActions int
	// Unbounded says the action count follows the input and nothing caps
	// it at the 100-action transaction limit.
	Unbounded bool
	// Pages says a Query or Scan pattern hands out pages with a cursor, so
	// no single call needs more than DynamoDB's 1 MB page.
	Pages bool
	// AllPages says the pattern follows LastEvaluatedKey itself until the
	// read ends, so its answer is never cut at 1 MB (each call still reads
	// the whole range).
	AllPages bool
	// MaxItems is the most items one call of an unpaged Query returns
	// (0: unknown), which bounds its response against the 1 MB page.
	MaxItems int
	// Reads names the attributes the pattern needs from its index (nil: not
	// declared); an index whose readers all declare them needs no ALL
	// projection.
	Reads []string
	// Filters names the attributes a Query or Scan pattern's
	// FilterExpression reads, and Counts says it asks for Select=COUNT:
	// DynamoDB charges such a read for every item it evaluates, whatever
	// it returns.
	Filters []string
	Counts  bool
}

// Design is a design package's declaration: its table and its catalog.
type Design struct {
	Name     string // package name; "design:<Name>" labels its suite
	Summary  string
	Schema   Schema
	Patterns []Pattern
	// Table is the table's name in the model the design was imported
	// from, which export-model writes back; empty: the design's name.
	Table string
	// Facets names each entity type (its TypeAttribute value) as the
	// model's facet did, where the two differ; export-model writes them
	// back as facet names.
	Facets map[string]string
}

// Pattern returns the catalog entry with the given ID.
func (d Design) Pattern(id PatternID) (Pattern, bool) {
	for _, p := range d.Patterns {
		if p.ID == id {
			return p, true
		}
	}
	return Pattern{}, false
}

// Validate reports the first inconsistency between the catalog and the
// schema: duplicate IDs, unknown indexes, missing fields, an index key
// DynamoDB would refuse (Schema.CheckKeys).
func (d Design) Validate() error {
	if err := d.Schema.CheckKeys(); err != nil {
		return fmt.Errorf("design %s: %w", d.Name, err)
	}
	indexes := map[string]bool{MainTable: true}
	for _, ix := range append(append([]Index{}, d.Schema.GSIs...), d.Schema.LSIs...) {
		if indexes[ix.Name] {
			return fmt.Errorf("design %s: index %s declared twice", d.Name, ix.Name)
		}
		indexes[ix.Name] = true
	}
	seen := map[PatternID]bool{}
	for _, p := range d.Patterns {
		switch {
		case p.ID == "" || p.Name == "" || p.Op == "":
			return fmt.Errorf("design %s: pattern %q needs an ID, a name and an operation", d.Name, p.ID)
		case seen[p.ID]:
			return fmt.Errorf("design %s: pattern ID %s used twice", d.Name, p.ID)
		case !indexes[p.Index]:
			return fmt.Errorf("design %s: pattern %s uses unknown index %q (want %s or a declared index)", d.Name, p.ID, p.Index, MainTable)
		}
		seen[p.ID] = true
	}
	return nil
}

// Label is the Ginkgo label of the design's suite.
func (d Design) Label() string { return "design:" + d.Name }
