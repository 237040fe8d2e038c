package shape

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// patterns lists what the sample data can prove: a get per entity, then a
// query per partition key layout of the table (its item collections), then
// per index a query per partition key layout of the entities it holds.
func (d *Design) patterns() {
	add := func(p *Pattern) {
		p.ID = designs.PatternID(fmt.Sprintf("AP-%02d", len(d.Patterns)+1))
		d.Patterns = append(d.Patterns, p)
	}
	for _, e := range d.Entities {
		add(&Pattern{Go: "Get" + e.Go, Name: "get " + e.Facet, Op: designs.GetItem, Index: designs.MainTable, Entity: e,
			Doc: fmt.Sprintf("read one %s by its key", e.Facet)})
	}
	if d.Schema.SK != "" {
		d.queries("", []string{d.Schema.PK}, add)
	}
	for _, ix := range d.Schema.GSIs {
		d.queries(ix.Name, ix.PartitionAttrs(), add)
	}
	for _, ix := range d.Schema.LSIs {
		d.queries(ix.Name, []string{d.Schema.PK}, add)
	}
	for _, ix := range d.Schema.ItemSchema().Indexes {
		if !slices.ContainsFunc(d.Patterns, func(p *Pattern) bool { return p.Index == ix.Name }) {
			keys := strings.Join(ix.KeyAttrs(), " and ")
			d.Notes = append(d.Notes, fmt.Sprintf("index %s has no pattern: no sample item carries %s, so there is nothing to prove a query on (add a sample that does in Workbench)", ix.Name, keys))
		}
	}
}

// queries adds one Query pattern per layout of the partition key attrs
// (one attribute, or a multi-attribute key's, in order) among the
// entities whose items index holds.
func (d *Design) queries(index string, attrs []string, add func(*Pattern)) {
	var order []string
	groups := map[string][]*Entity{}
	keys := map[string][]*KeyUse{}
	for _, e := range d.Entities {
		var ks []*KeyUse
		var shapes []string
		for _, a := range attrs {
			if k := e.Key(a); k != nil {
				ks = append(ks, k)
				shapes = append(shapes, k.shape(d.Sep, func(*Var) string { return "*" })) // entities whose keys differ only in their values share a query
			}
		}
		if len(ks) < len(attrs) || !d.Holds(index, e) {
			continue
		}
		sk := strings.Join(shapes, ", ")
		if _, ok := groups[sk]; !ok {
			order = append(order, sk)
			keys[sk] = ks
		}
		groups[sk] = append(groups[sk], e)
	}
	ix := index
	if ix == "" {
		ix = designs.MainTable
	}
	taken := map[string]bool{}
	for _, p := range d.Patterns {
		taken[p.Go] = true
	}
	for _, sk := range order {
		k := keys[sk][0]
		var by []string
		for _, v := range KeyVars(keys[sk]...) {
			by = append(by, v.Go)
		}
		name, text := "Query", "query"
		if index != "" {
			name, text = name+GoName(index), text+" "+index
		}
		if len(by) > 0 {
			name, text = name+"By"+strings.Join(by, ""), text+" by "+strings.Join(by, ", ")
		} else {
			name, text = name+GoName(sk), text+" "+sk
		}
		var names []string
		for _, e := range groups[sk] {
			names = append(names, e.Facet)
		}
		where := "the table"
		if index != "" {
			where = index
		}
		p := &Pattern{Go: unique(name, taken), Name: text, Op: designs.Query, Index: ix, Group: groups[sk], Key: k,
			Doc: fmt.Sprintf("list the %s items of one %s partition (%s) on %s, in sort key order, a page at a time", strings.Join(names, ", "), strings.Join(attrs, ", "), sk, where)}
		if len(attrs) > 1 {
			p.Keys = keys[sk]
		}
		add(p)
	}
}

// Holds says index (empty: the table) has an entry for every item of e:
// its items carry the index's keys, whichever attributes those are (an
// inverted index's partition key is the table's sort key).
func (d *Design) Holds(index string, e *Entity) bool {
	if index == "" {
		return true
	}
	ix, ok := d.Schema.ItemSchema().Index(index) // an LSI's partition key is the table's
	return ok && all(ix.KeyAttrs(), func(a string) bool { return e.Key(a) != nil })
}

// Key is the entity's layout of attribute attr, or nil.
func (e *Entity) Key(attr string) *KeyUse {
	for _, k := range e.Keys {
		if k.Attr == attr {
			return k
		}
	}
	return nil
}
