package shape

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// entity reads one facet: which keys its items carry, how each is laid
// out, and the attributes it stores.
func (d *Design) entity(f modelfile.Facet) *Entity {
	e := &Entity{Facet: f.FacetName, Go: GoName(f.FacetName)}
	for _, it := range f.TableData {
		e.Samples = append(e.Samples, it.Attrs)
	}
	if s, ok := e.Samples[0][d.Schema.TypeAttribute].(*types.AttributeValueMemberS); ok {
		e.TypeValue = s.Value
	} else {
		e.TypeValue = f.FacetName
	}
	t := d.Table
	carried := func(attr string) bool {
		return all(e.Samples, func(it map[string]types.AttributeValue) bool { _, ok := it[attr]; return ok })
	}
	key := func(a modelfile.Attribute, index string, sparse bool) {
		if !slices.ContainsFunc(e.Keys, func(k *KeyUse) bool { return k.Attr == a.AttributeName }) {
			k := &KeyUse{Attr: a.AttributeName, Index: index, Type: a.AttributeType}
			if sparse {
				k.Flag = index // named below, once the fields are known
			}
			e.Keys = append(e.Keys, k)
		}
	}
	key(t.KeyAttributes.PartitionKey, "", false)
	if sk := t.KeyAttributes.SortKey; sk != nil {
		key(*sk, "", false)
	}
	// An index holds the items that carry its keys: all of the entity's,
	// some (a sparse index: the others are left out of it), or none.
	index := func(ix modelfile.Index, keys ...modelfile.Attribute) {
		in := 0
		for _, it := range e.Samples {
			if all(keys, func(a modelfile.Attribute) bool { _, ok := it[a.AttributeName]; return ok }) {
				in++
			}
		}
		if in == 0 {
			return
		}
		for _, a := range keys {
			key(a, ix.IndexName, in < len(e.Samples) && !carried(a.AttributeName))
		}
	}
	for _, ix := range t.GlobalSecondaryIndexes {
		index(ix, modelfile.KeyAttrs(ix.KeyAttributes)...)
	}
	for _, ix := range t.LocalSecondaryIndexes {
		if sk := ix.KeyAttributes.SortKey; sk != nil {
			index(ix, *sk)
		}
	}
	d.fields(e, f)
	alias := map[string]string{t.KeyAttributes.PartitionKey.AttributeName: f.KeyAttributeAlias.PartitionKeyAlias}
	if sk := t.KeyAttributes.SortKey; sk != nil {
		alias[sk.AttributeName] = f.KeyAttributeAlias.SortKeyAlias
	}
	for _, k := range e.Keys {
		d.layout(e, k, alias[k.Attr])
	}
	flagNames(e)
	return e
}

// flagNames names the field that says an item is in a sparse index
// ("InByOwner"), one per index, apart from the entity's other names.
func flagNames(e *Entity) {
	taken := e.takenNames()
	named := map[string]string{}
	for _, k := range e.Keys {
		if k.Flag == "" {
			continue
		}
		if _, ok := named[k.Flag]; !ok {
			named[k.Flag] = unique("In"+GoName(k.Flag), taken)
		}
		k.Flag = named[k.Flag]
	}
}

// missing stands, in a key's column of sample values, for a sample that
// does not carry the key (an item outside a sparse index).
const missing = "\x00"

// fields are the facet's stored attributes: its NonKeyAttributes (or,
// when it lists none, every attribute its samples have), less the keys it
// carries and the type attribute.
func (d *Design) fields(e *Entity, f modelfile.Facet) {
	names := slices.Clone(f.NonKeyAttributes)
	for _, it := range e.Samples {
		for _, n := range slices.Sorted(maps.Keys(it)) { // fields in one order, run after run
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	declared := map[string]string{}
	for _, a := range d.Table.NonKeyAttributes {
		declared[a.AttributeName] = a.AttributeType
	}
	taken := methodNames()
	for _, n := range names {
		if n == d.Schema.TypeAttribute || slices.ContainsFunc(e.Keys, func(k *KeyUse) bool { return k.Attr == n }) {
			continue
		}
		typ := "" // the facet's samples decide; the table's declaration, when they lack it
		for _, it := range e.Samples {
			if v, ok := it[n]; ok {
				if typ == "" {
					typ = ddbitem.TypeName(v)
				} else if typ != ddbitem.TypeName(v) {
					typ = "any"
				}
			}
		}
		if typ == "" {
			typ = cmp.Or(declared[n], "S")
		}
		e.Fields = append(e.Fields, &Field{Attr: n, Go: unique(GoName(n), taken), Type: typ})
	}
}

// layout splits a key's sample values on the separator. A segment that
// all samples share is a constant unless something says it varies: the
// facet's alias of the key names a part there (ITEMS#ItemID), a text
// attribute holds its value, it is a date, time or ID (digits, a UUID),
// or, when only one value was seen, it has digits or follows a tag. The
// rest are variable parts. A key whose samples split differently, or that
// is not text, is one variable part.
func (d *Design) layout(e *Entity, k *KeyUse, alias string) {
	values := make([]string, len(e.Samples))
	var present []string
	for i, it := range e.Samples {
		values[i] = missing
		if v, ok := it[k.Attr]; ok {
			values[i] = ddbitem.KeyText(v)
			present = append(present, values[i])
		}
	}
	distinct := len(slices.Compact(slices.Sorted(slices.Values(present))))
	split := make([][]string, len(values))
	n := -1
	for i, v := range values {
		if v == missing {
			continue
		}
		split[i] = designs.SplitKey(v, d.Sep, -1)
		if n >= 0 && len(split[i]) != n {
			n = -2
			break
		}
		n = len(split[i])
	}
	var hints []string // the alias's segments, when it spells this layout out
	if alias != "" && alias != k.Attr {
		if h := designs.SplitKey(alias, d.Sep, -1); len(h) == max(n, 1) {
			hints = h
		}
	}
	if k.Type != "S" || n < 0 {
		k.Segs = []Seg{{Var: d.bind(e, k, "", values, hint(hints, 0, ""))}}
		return
	}
	tag := ""
	for i := range n {
		col := column(split, i)
		first := col[slices.IndexFunc(col, func(s string) bool { return s != missing })]
		same := all(col, func(s string) bool { return s == first || s == missing })
		name := hint(hints, i, first)
		varies := name != "" || d.heldByField(e, col) || idLike(first) ||
			(n == 1 && idName(k.Attr)) ||
			(distinct == 1 && (strings.ContainsFunc(first, unicode.IsDigit) || (i%2 == 1 && n > 1)))
		if same && !varies {
			k.Segs = append(k.Segs, Seg{Const: first})
			tag = first
			continue
		}
		k.Segs = append(k.Segs, Seg{Var: d.bind(e, k, tag, col, name)})
	}
}

// hint is the name the alias gives segment i, "" where it has none or
// repeats the samples' constant.
func hint(hints []string, i int, value string) string {
	if i >= len(hints) || hints[i] == value || strings.IndexFunc(hints[i], unicode.IsLetter) < 0 {
		return ""
	}
	return hints[i]
}

// heldByField says a stored text attribute of e holds a key segment's
// value in every sample that carries the key.
func (d *Design) heldByField(e *Entity, col []string) bool {
	return slices.ContainsFunc(e.Fields, func(f *Field) bool { return f.Type == "S" && matches(e, f.Attr, col) })
}

var (
	idText   = regexp.MustCompile(`^([0-9]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9A-HJKMNP-TV-Z]{26}|[0-9]{4}-[0-9]{2}-[0-9]{2}([T ].*)?)$`)
	dateText = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}`)
	idNamed  = regexp.MustCompile(`(Id|ID|_id|Date|At|Time|Name)$`)
)

// idLike says a segment is an ID or a date, which varies from item to
// item even when the samples share it: digits, a UUID, a ULID, a date.
func idLike(s string) bool { return idText.MatchString(s) }

// idName says an attribute's name says it holds an ID, a date or a name.
func idName(attr string) bool { return idNamed.MatchString(attr) }

// column is the i-th segment of each sample, missing where a sample does
// not carry the key.
func column(split [][]string, i int) []string {
	out := make([]string, len(split))
	for j, s := range split {
		out[j] = missing
		if s != nil {
			out[j] = s[i]
		}
	}
	return out
}

// sameValues says two columns agree on every sample that both carry,
// and that there is one.
func sameValues(a, b []string) bool {
	both := false
	for j := range a {
		if a[j] != missing && b[j] != missing {
			if a[j] != b[j] {
				return false
			}
			both = true
		}
	}
	return both
}

// bind finds the variable a key segment holds: a stored text attribute
// with the same value in every sample, else an earlier variable with the
// same tag and values, else a new one named after its tag or its key.
func (d *Design) bind(e *Entity, k *KeyUse, tag string, col []string, named string) *Var {
	for _, f := range e.Fields {
		if f.Type != "S" {
			continue
		}
		if matches(e, f.Attr, col) {
			for _, v := range e.Vars {
				if v.Field == f {
					return v
				}
			}
			v := &Var{Go: f.Go, Tag: tag, Field: f, values: col}
			e.Vars = append(e.Vars, v)
			return v
		}
	}
	present := slices.DeleteFunc(slices.Clone(col), func(s string) bool { return s == missing })
	distinct := len(slices.Compact(slices.Sorted(slices.Values(present))))
	for _, v := range e.Vars {
		if v.Field == nil && sameValues(v.values, col) && (distinct > 1 || tag != "" && v.Tag == tag) {
			return v
		}
	}
	v := &Var{Go: partName(k, tag, named, col, e.takenNames()), Tag: tag, values: col}
	e.Vars = append(e.Vars, v)
	return v
}

// partName names a new key part: as the alias names it, else after the
// tag before it (USER: UserID; ID: ID), else after its key attribute; a
// name taken in the entity is qualified by the key attribute (OrderID in
// GSI1PK: GSI1PKOrderID), then numbered with a Part (SKPart2).
func partName(k *KeyUse, tag, named string, col []string, taken map[string]bool) string {
	name := GoName(k.Attr)
	switch {
	case named != "":
		name = GoName(named)
	case tag != "" && strings.IndexFunc(tag, unicode.IsLetter) >= 0:
		name = tagName(tag)
		switch {
		case slices.ContainsFunc(col, func(s string) bool { return dateText.MatchString(s) }):
			name += "Time" // EVENT#<EventTime>#<EventID>
		case !strings.HasSuffix(name, "Id") && !strings.HasSuffix(name, "ID"):
			name += "ID"
		}
		if taken[name] && GoName(k.Attr) != name {
			name = GoName(k.Attr) + name
		}
	}
	if !taken[name] {
		taken[name] = true
		return name
	}
	out := name + "Part2"
	for i := 3; taken[out]; i++ {
		out = fmt.Sprintf("%sPart%d", name, i)
	}
	taken[out] = true
	return out
}

func matches(e *Entity, attr string, col []string) bool {
	for j, it := range e.Samples {
		if col[j] == missing {
			continue
		}
		s, ok := it[attr].(*types.AttributeValueMemberS)
		if !ok || s.Value != col[j] {
			return false
		}
	}
	return true
}
