package shape

import (
	"github.com/ddbharness/ddbharness/designs"
)

// FacetNames are the entities' facet names by type value, where the two
// differ: the catalog keeps them for export-model.
func (d *Design) FacetNames() map[string]string {
	out := map[string]string{}
	for _, e := range d.Entities {
		if e.Facet != e.TypeValue {
			out[e.TypeValue] = e.Facet
		}
	}
	return out
}

// Catalog is the designs.Design the generated catalog.go declares.
func (d *Design) Catalog() designs.Design {
	out := designs.Design{Name: d.Name, Table: d.Table.TableName, Schema: d.Schema}
	if f := d.FacetNames(); len(f) > 0 {
		out.Facets = f
	}
	for _, p := range d.Patterns {
		out.Patterns = append(out.Patterns, p.Catalog())
	}
	return out
}

// Catalog is the pattern's entry in the design's Catalog: the one place
// that decides its Pages, MaxItems, AllPages and MaxActions, which the
// generated catalog.go writes out.
func (p *Pattern) Catalog() designs.Pattern {
	dp := designs.Pattern{ID: p.ID, Name: p.Name, Op: p.Op, Index: p.Index, Doc: p.Doc, Pages: p.Op == designs.Query && p.MCP == nil, Command: p.Command}
	if c := p.MCP; c != nil {
		dp.MaxItems, dp.MaxActions = c.MaxItems(), c.MaxActions()
		dp.AllPages = dp.MaxItems == 0 && (c.Op == designs.Query || c.Op == designs.Scan)
	}
	return dp
}
