package workbench

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// pkg is the design as the shared templates of a design package read it
// (scaffold.Package): its schema, catalog, suite, fixtures, scenario and
// README are written from the same templates as new-design's.
func (d design) pkg(model string) scaffold.Package {
	p := scaffold.Package{Name: d.Name, Pascal: d.pascal(), Notes: d.Notes,
		Import: &scaffold.Import{Model: model, Table: d.Table.TableName, Sep: d.Sep, TypeAttribute: d.Schema.TypeAttribute},
		Schema: d.schema(),
	}
	var names []string
	for _, e := range d.Entities {
		names = append(names, e.Facet)
		p.Import.Pools = append(p.Import.Pools, scaffold.Pool{Facet: poolName(e), Field: plural(e), Type: e.Go})
	}
	p.Summary = "imported from NoSQL Workbench: table " + d.Table.TableName + " (" + strings.Join(names, ", ") + ")"
	facets := d.FacetNames()
	for _, v := range slices.Sorted(maps.Keys(facets)) {
		p.Facets = append(p.Facets, [2]string{v, facets[v]})
	}
	for _, pt := range d.Patterns {
		p.Patterns = append(p.Patterns, d.catalogRow(pt))
	}
	for _, pt := range d.own() {
		e := d.poolOf(pt)
		s := scaffold.Step{Pattern: pt.Go, Weight: 10, Entity: poolName(e), Zipf: true, Field: plural(e), Query: pt.Entity == nil}
		var args []string
		for _, v := range d.vars(pt) {
			args = append(args, "v."+v.Go)
		}
		s.Args = scaffold.Code(strings.Join(args, ", "))
		if s.Query && len(args) > 0 {
			s.Args += ", "
		}
		p.Mix = append(p.Mix, s)
	}
	if mix, peak := d.declaredMix(); peak > 0 {
		p.Mix, p.Import.DeclaredPeak = mix, scaffold.Code(shape.RateText(peak))
	}
	// The driver calls the model's own patterns too, with their commands'
	// values, so that whatever calls every pattern of the catalog (the
	// transaction conflict specs, a mix written later) reaches them.
	for _, pt := range d.Patterns {
		if pt.MCP == nil {
			continue
		}
		c := scaffold.Call{Pattern: pt.Go, Returns: mcp.Reads(pt.Op)}
		for _, a := range mcp.Args(pt.Params) {
			c.Args += scaffold.Code(", " + a)
		}
		p.Import.Calls = append(p.Import.Calls, c)
		if !mcp.Reads(pt.Op) {
			p.Import.Writes = append(p.Import.Writes, pt.Go)
		}
	}
	d.readmeRows(&p)
	return p
}

// schema is the Schema literal's data: the table as the model declares it.
func (d design) schema() scaffold.Schema {
	s := scaffold.Schema{PK: d.Schema.PK, SK: d.Schema.SK, Billing: string(d.Schema.Billing), RCU: d.Schema.RCU, WCU: d.Schema.WCU}
	for _, n := range slices.Sorted(maps.Keys(d.Schema.Types)) {
		s.Types = append(s.Types, [2]string{n, string(d.Schema.Types[n])})
	}
	index := func(ix designs.Index) scaffold.Index {
		out := scaffold.Index{Const: shape.IndexConst(ix.Name), Name: ix.Name, PK: ix.PK, SK: ix.SK, PKs: ix.PKs, SKs: ix.SKs}
		if ix.Projection == types.ProjectionTypeKeysOnly || ix.Projection == types.ProjectionTypeInclude {
			out.Projection, out.NonKey = string(ix.Projection), ix.NonKey
		}
		return out
	}
	for _, ix := range d.Schema.GSIs {
		s.GSIs = append(s.GSIs, index(ix))
	}
	for _, ix := range d.Schema.LSIs {
		s.LSIs = append(s.LSIs, index(ix))
	}
	return s
}

// catalogRow is the pattern's entry in the catalog and row in the README.
func (d design) catalogRow(p *shape.Pattern) scaffold.Pattern {
	// The catalog's texts reach terminals (catalog, verify, bench) and
	// reports: Printable, whatever the model spelt.
	row := scaffold.Pattern{Go: p.Go, ID: string(p.ID), Name: scaffold.Printable(p.Name), Op: string(p.Op), Doc: scaffold.Printable(p.Doc), Missing: p.Why != "",
		OpExpr: scaffold.Code("designs." + string(p.Op)), Where: "main table", Index: "designs.MainTable"}
	if !slices.Contains(mcp.OpsList(), p.Op) {
		row.OpExpr = scaffold.Code(fmt.Sprintf("designs.Operation(%q)", p.Op)) // a model's pattern that names no operation
	}
	if p.Index != designs.MainTable {
		row.Where, row.Index = p.Index, scaffold.Code(shape.IndexConst(p.Index))
	}
	var extra []string
	dp := p.Catalog()
	if dp.Pages {
		extra = append(extra, "Pages: true")
	}
	if dp.MaxItems > 0 {
		extra = append(extra, fmt.Sprintf("MaxItems: %d", dp.MaxItems))
	}
	if dp.AllPages {
		extra = append(extra, "AllPages: true")
	}
	if dp.MaxActions > 0 {
		extra = append(extra, fmt.Sprintf("MaxActions: %d", dp.MaxActions))
	}
	if dp.Command != "" {
		extra = append(extra, "Command: "+strconv.Quote(dp.Command))
	}
	for _, x := range extra {
		row.Extra += scaffold.Code(", " + x)
	}
	var keys []*shape.KeyUse
	switch {
	case p.Entity != nil:
		keys = []*shape.KeyUse{p.Entity.Key(d.Schema.PK), p.Entity.Key(d.Schema.SK)}
	case p.Group != nil:
		keys = partition(p)
	case p.MCP != nil:
		row.Keys = "the model's command (`Command` in catalog.go)"
	}
	var conds []string
	for _, k := range keys {
		if k != nil {
			conds = append(conds, "`"+k.Attr+"` = `"+k.Layout(d.Sep)+"`")
		}
	}
	if len(conds) > 0 {
		row.Keys = strings.Join(conds, ", ")
	}
	return row
}

// readmeRows adds the README's entity rows and key chart.
func (d design) readmeRows(p *scaffold.Package) {
	layout := func(k *shape.KeyUse) string {
		if k == nil {
			return ""
		}
		return k.Layout(d.Sep)
	}
	main := scaffold.KeyChart{Title: "Main table (`" + d.Schema.PK + "`" + cond(d.Schema.SK != "", ", `"+d.Schema.SK+"`") + "):",
		PK: d.Schema.PK, SK: d.Schema.SK, Other: true}
	for _, e := range d.Entities {
		var vars, attrs, sparse []string
		for _, v := range shape.KeyVars(e.Key(d.Schema.PK), e.Key(d.Schema.SK)) {
			vars = append(vars, v.Go)
		}
		for _, f := range e.Fields {
			attrs = append(attrs, f.Attr)
		}
		for _, k := range e.Keys {
			if k.Flag != "" {
				sparse = append(sparse, "in index `"+k.Index+"` only with "+k.Flag)
			}
		}
		p.Entities = append(p.Entities, scaffold.Entity{Name: e.Facet + " (`" + e.Go + "`)", Key: strings.Join(vars, ", "),
			Attributes: strings.Join(attrs, ", "), Notes: strings.Join(slices.Compact(sparse), "; ")})
		main.Rows = append(main.Rows, scaffold.KeyRow{Item: e.Facet, PK: layout(e.Key(d.Schema.PK)), SK: layout(e.Key(d.Schema.SK)), Other: strings.Join(attrs, ", ")})
	}
	p.Charts = append(p.Charts, main)
	for _, ix := range d.Schema.ItemSchema().Indexes {
		// A multi-attribute key's column names its attributes in order,
		// and each row their layouts in that order.
		pks, sks := ix.PartitionAttrs(), ix.SortAttrs()
		names := func(attrs []string) string { return strings.Join(attrs, "`, `") }
		c := scaffold.KeyChart{Title: "Index `" + ix.Name + "` (`" + names(pks) + "`" + cond(len(sks) > 0, ", `"+names(sks)+"`") + ", projection " + string(ix.Projection) + "):",
			PK: strings.Join(pks, ", "), SK: strings.Join(sks, ", ")}
		for _, e := range d.Entities {
			if !d.Holds(ix.Name, e) {
				continue
			}
			layouts := func(attrs []string) string {
				var out []string
				for _, a := range attrs {
					out = append(out, layout(e.Key(a)))
				}
				return strings.Join(out, ", ")
			}
			item := e.Facet
			for _, a := range slices.Concat(sks, pks) { // the sort key's flag first, as a sparse index is most often sparse on it
				if k := e.Key(a); k.Flag != "" {
					item += " (with " + k.Flag + ")"
					break
				}
			}
			c.Rows = append(c.Rows, scaffold.KeyRow{Item: item, PK: layouts(pks), SK: layouts(sks)})
		}
		p.Charts = append(p.Charts, c)
	}
}

// cond is s when ok, else "".
func cond(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// plural is the field of Seeded<Design> holding an entity's items.
func plural(e *shape.Entity) string { return scaffold.Plural(e.Go) }

// poolOf is the entity whose seeded items give a pattern its arguments.
func (d design) poolOf(p *shape.Pattern) *shape.Entity {
	if p.Entity != nil {
		return p.Entity
	}
	return p.Group[0]
}

// poolName is the name of e's pool in the scenario: its facet, or, for a
// facet named by an empty type value, its Go type, so that every step
// names a pool and the scenario's code has one shape whatever the model's
// text.
func poolName(e *shape.Entity) string {
	if e.Facet != "" {
		return e.Facet
	}
	return e.Go
}

// own are the patterns the import makes of the keys and indexes (not a
// model's own): the default scenario mixes them.
func (d design) own() []*shape.Pattern {
	return slices.DeleteFunc(slices.Clone(d.Patterns), func(p *shape.Pattern) bool { return p.Entity == nil && p.Group == nil })
}
