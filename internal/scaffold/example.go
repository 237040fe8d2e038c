package scaffold

import "strings"

// pkg is the package new-design writes, as the shared templates read it:
// the example entity's schema, its two patterns, its scenario's mix and
// the README's rows for it.
func (d data) pkg(name string) Package {
	p := Package{Name: name, Pascal: pascal(name),
		Schema:  Schema{PK: "PK", SK: "SK"},
		Summary: d.Entity + " items, each its own partition (replace with the doc's summary)",
	}
	key := d.EntityUpper + "#<" + d.Key + ">"
	p.Patterns = []Pattern{
		{Go: "Create" + d.EntityPascal, ID: "AP-01", Name: "create " + d.Entity, Op: "PutItem", OpExpr: "designs.PutItem",
			Where: "main table", Index: "designs.MainTable", Keys: "`" + key + "`, `attribute_not_exists`",
			Doc: "write a new " + d.Entity + "; a second create of its " + d.KeyProse + " is refused"},
		{Go: "Get" + d.EntityPascal, ID: "AP-02", Name: "get " + d.Entity, Op: "GetItem", OpExpr: "designs.GetItem",
			Where: "main table", Index: "designs.MainTable", Keys: "`" + key + "`",
			Doc: "read one " + d.Entity + " by " + d.KeyProse},
	}
	id := "KSUID"
	if !d.Generated {
		id = "given by the caller"
	}
	attrs, other := "Name, CreatedAt", d.KeyAttr+", Name, CreatedAt"
	create := Step{Pattern: "Create" + d.EntityPascal, Weight: 20, Entity: d.Entity}
	var fields []string // the entity's fields GSI1 keys
	for _, g := range d.Groups {
		fields = append(fields, g.Pascal)
	}
	if d.HasGroup {
		p.Summary = d.Entity + " items, each its own partition, grouped by " + d.GroupProse + " on GSI1 (replace with the doc's summary)"
		p.Schema.GSIs = []Index{{Const: "GSI1", Name: "GSI1", PK: "GSI1PK", SK: "GSI1SK"}}
		if d.Tuple { // a multi-attribute GSI1 is keyed by the item's own attributes
			p.Schema.GSIs = []Index{{Const: "GSI1", Name: "GSI1", PKs: fields, SK: d.KeyAttr}}
		}
		attrs, other = strings.Join(fields, ", ")+", "+attrs, d.KeyAttr+", "+strings.Join(fields, ", ")+", Name, CreatedAt"
		create.Entity = d.GroupPool
	}
	p.Mix = []Step{{Pattern: "Get" + d.EntityPascal, Weight: 80, Entity: d.Entity, Zipf: true}, create}
	p.Entities = []Entity{{Name: d.EntityPascal, Key: "`" + d.KeyAttr + "` (" + id + ")", Attributes: attrs, Notes: "one item per " + d.Entity}}
	p.Charts = []KeyChart{{Title: "Main table (`PK`, `SK`, both strings):", PK: "PK", SK: "SK", Other: true,
		Rows: []KeyRow{{Item: d.EntityPascal, PK: key, SK: key, Other: other}}}}
	switch {
	case d.Tuple:
		var vals []string
		for _, g := range d.Groups {
			vals = append(vals, "<"+g.Name+">")
		}
		p.Charts = append(p.Charts, KeyChart{
			Title: "GSI1, a multi-attribute GSI (partition key `" + strings.Join(fields, "`, `") + "`, sort key `" + d.KeyAttr + "`, projection ALL):",
			PK:    strings.Join(fields, ", "), SK: d.KeyAttr,
			Rows: []KeyRow{{Item: d.EntityPascal, PK: strings.Join(vals, ", "), SK: "<" + d.Key + ">"}}})
	case d.HasGroup:
		p.Charts = append(p.Charts, KeyChart{Title: "GSI1 (`GSI1PK`, `GSI1SK`, projection ALL):", PK: "GSI1PK", SK: "GSI1SK",
			Rows: []KeyRow{{Item: d.EntityPascal, PK: d.GroupUpper + "#<" + d.Group + ">", SK: key}}})
	}
	return p
}
