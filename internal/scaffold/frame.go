package scaffold

import (
	"slices"
	"strings"
)

// Package is what the files every design package has say of it, whichever
// generator writes them: the data of the shared templates (schema,
// catalog, suite, fixtures, scenario and README). new-design fills it from
// its names, import-model from a model; what only one of them writes is a
// branch on Import. Names are Go identifiers the generator made; every
// other text is quoted by the templates where it lands.
type Package struct {
	Name, Pascal string  // the design and its package ("library"), its Go name ("Library")
	Import       *Import // nil: new-design
	Schema       Schema
	Summary      string      // the catalog's one line about the design
	Facets       [][2]string // a type attribute value and the facet it stands for, where they differ
	Patterns     []Pattern
	Mix          []Step     // the default scenario's steps
	Entities     []Entity   // the README's entities
	Charts       []KeyChart // the README's key chart: the table's, then each index's
	Notes        []string   // the README's notes from the generator
}

// Scenario is the name of the design's default scenario.
func (p Package) Scenario() string { return p.Pascal + "Steady" }

// Import is what only an imported design's files say.
type Import struct {
	Model, Table, Sep string // the model's name, its table's name, the key separator, as the model spells them
	TypeAttribute     string // the attribute holding each item's entity type
	Pools             []Pool // the fixtures' Seeded fields and the scenario's pools, one per entity
	Calls             []Call // the model's own patterns the driver calls, beside the mix's
	// Writes are the model's own patterns that write, whose refusal by
	// their condition the driver names likely (workload.Likely).
	Writes []string
	// DeclaredPeak is the requests per second at peak the model declares
	// for the mix's patterns, a Go literal; "" when it declares none (the
	// mix is then the import's gets and queries, evenly).
	DeclaredPeak Code
}

// Call is an imported model's own pattern as the driver calls it: with
// the values of the model's command, whatever the key.
type Call struct {
	Pattern string // the pattern's function
	Args    Code   // its arguments after ctx, each after ", "
	Returns bool   // it returns items beside its error
}

// Pool is one entity's seeded items.
type Pool struct {
	Facet string // the pool's name in the scenario: the model's facet
	Field string // its field of Seeded<Design>: Photos
	Type  string // the entity's Go type: Photo
}

// Schema is the designs.Schema a design declares.
type Schema struct {
	PK, SK     string
	Types      [][2]string // attribute and scalar type, where one is declared
	GSIs, LSIs []Index
	Billing    string // "" on-demand by default
	RCU, WCU   int64
}

// Indexes are the schema's GSIs, then its LSIs.
func (s Schema) Indexes() []Index { return slices.Concat(s.GSIs, s.LSIs) }

// IndexList is one list of a Schema literal: GSIs or LSIs.
type IndexList struct {
	Field   string
	Indexes []Index
}

// IndexLists are the schema's lists that have an index.
func (s Schema) IndexLists() []IndexList {
	var out []IndexList
	for _, l := range []IndexList{{"GSIs", s.GSIs}, {"LSIs", s.LSIs}} {
		if len(l.Indexes) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// UsesTypes is whether the Schema literal names the SDK's types package.
func (s Schema) UsesTypes() bool {
	return len(s.Types) > 0 || slices.ContainsFunc(s.Indexes(), func(ix Index) bool { return ix.Projection != "" })
}

// Index is one secondary index of a Schema.
type Index struct {
	Const, Name string // the Go constant naming it, and its name
	PK, SK      string
	PKs, SKs    []string // a multi-attribute key's attributes, in order, in place of PK or SK
	Projection  string   // "" ALL, KEYS_ONLY or INCLUDE
	NonKey      []string // INCLUDE's attributes
}

// projections are the SDK constants of the projections a Schema literal names.
var projections = map[string]string{"KEYS_ONLY": "ProjectionTypeKeysOnly", "INCLUDE": "ProjectionTypeInclude"}

// ProjectionConst is the SDK's constant of the index's projection.
func (ix Index) ProjectionConst() string { return projections[ix.Projection] }

// Pattern is one row of the catalog, and of the README's pattern table.
type Pattern struct {
	Go       string // the pattern's function, and its ID constant's prefix
	ID, Name string
	Op       string // the operation, as DynamoDB names it
	OpExpr   Code   // the catalog's Op: designs.GetItem
	Where    string // the table or index it reads, as the README says it
	Index    Code   // the catalog's Index: designs.MainTable, GSI1
	Keys     string // the README's key condition (Markdown)
	Doc      string
	Extra    Code // the catalog entry's further fields: ", Pages: true"
	Missing  bool // not generated: no function, no spec
}

// Step is one step of the default scenario's mix: the pattern, its share,
// the pool its key indexes and how keys are drawn (Zipf, else uniform).
type Step struct {
	Pattern string // the pattern's function
	Weight  int
	Entity  string // the pool
	Zipf    bool
	// An imported design's driver calls every step alike: on the
	// key-th item of the pool's Field, with Args taken from it (v).
	Field string
	Args  Code
	Query bool // a query: args then an empty cursor, and a page back
	// Model is a model's own pattern, weighted by its declared rate: the
	// driver calls it as an Import's Calls say, whatever the key, and its
	// key is drawn from the scenario's Pool.
	Model bool
}

// Entity is one row of the README's entity table.
type Entity struct {
	Name, Key, Attributes, Notes string // Markdown
}

// KeyChart is one table of the README's key chart.
type KeyChart struct {
	Title  string // Markdown: "Main table (`PK`, `SK`, both strings):"
	PK, SK string // the key attributes
	Other  bool   // a column of other attributes
	Rows   []KeyRow
}

// KeyRow is one item of a key chart: the layouts of its keys.
type KeyRow struct {
	Item, PK, SK, Other string // Markdown; PK and SK print as code
}

// pascal is a lower-case word as an exported Go name.
func pascal(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
