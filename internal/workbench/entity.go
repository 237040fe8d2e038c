package workbench

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// entity reads one facet: which keys its items carry, how each is laid
// out, and the attributes it stores.
func (d *Design) entity(f Facet) *Entity {
	e := &Entity{Facet: f.FacetName, Go: goName(f.FacetName)}
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
	key := func(a Attribute, index string) {
		if carried(a.AttributeName) && !slices.ContainsFunc(e.Keys, func(k *KeyUse) bool { return k.Attr == a.AttributeName }) {
			e.Keys = append(e.Keys, &KeyUse{Attr: a.AttributeName, Index: index, Type: a.AttributeType})
		}
	}
	key(t.KeyAttributes.PartitionKey, "")
	if sk := t.KeyAttributes.SortKey; sk != nil {
		key(*sk, "")
	}
	for _, ix := range t.GlobalSecondaryIndexes {
		if carried(ix.KeyAttributes.PartitionKey.AttributeName) && (ix.KeyAttributes.SortKey == nil || carried(ix.KeyAttributes.SortKey.AttributeName)) {
			key(ix.KeyAttributes.PartitionKey, ix.IndexName)
			if sk := ix.KeyAttributes.SortKey; sk != nil {
				key(*sk, ix.IndexName)
			}
		}
	}
	for _, ix := range t.LocalSecondaryIndexes {
		if sk := ix.KeyAttributes.SortKey; sk != nil && carried(sk.AttributeName) {
			key(*sk, ix.IndexName)
		}
	}
	d.fields(e, f)
	for _, k := range e.Keys {
		d.layout(e, k)
	}
	return e
}

// fields are the facet's stored attributes: its NonKeyAttributes (or,
// when it lists none, every attribute its samples have), less the keys it
// carries and the type attribute.
func (d *Design) fields(e *Entity, f Facet) {
	names := slices.Clone(f.NonKeyAttributes)
	for _, it := range e.Samples {
		for _, n := range sortedKeys(it) { // fields in one order, run after run
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
		e.Fields = append(e.Fields, &Field{Attr: n, Go: unique(goName(n), taken), Type: typ})
	}
}

// layout splits a key's sample values on the separator. A segment that
// all samples share is a constant, unless it looks like an ID (digits, or
// the value after a tag, when only one value was seen); the rest are
// variable parts. A key whose samples split differently, or that is not
// text, is one variable part.
func (d *Design) layout(e *Entity, k *KeyUse) {
	var values []string
	for _, it := range e.Samples {
		values = append(values, ddbitem.KeyText(it[k.Attr]))
	}
	distinct := len(slices.Compact(slices.Sorted(slices.Values(values))))
	split := make([][]string, len(values))
	n := -1
	for i, v := range values {
		split[i] = strings.Split(v, d.Sep)
		if n >= 0 && len(split[i]) != n {
			n = -2
			break
		}
		n = len(split[i])
	}
	if k.Type != "S" || n < 0 {
		k.Segs = []Seg{{Var: d.bind(e, k, "", column(split, -1, values))}}
		return
	}
	tag := ""
	for i := range n {
		col := column(split, i, values)
		same := all(col, func(s string) bool { return s == col[0] })
		looksID := strings.ContainsFunc(col[0], unicode.IsDigit) || (i%2 == 1 && n > 1)
		if same && (distinct > 1 || !looksID) {
			k.Segs = append(k.Segs, Seg{Const: col[0]})
			tag = col[0]
			continue
		}
		k.Segs = append(k.Segs, Seg{Var: d.bind(e, k, tag, col)})
	}
}

// column is the i-th segment of each sample (i < 0: the whole values).
func column(split [][]string, i int, whole []string) []string {
	if i < 0 {
		return whole
	}
	out := make([]string, len(split))
	for j, s := range split {
		out[j] = s[i]
	}
	return out
}

// bind finds the variable a key segment holds: a stored text attribute
// with the same value in every sample, else an earlier variable with the
// same tag and values, else a new one named after its tag or its key.
func (d *Design) bind(e *Entity, k *KeyUse, tag string, col []string) *Var {
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
	distinct := len(slices.Compact(slices.Sorted(slices.Values(col))))
	for _, v := range e.Vars {
		if v.Field == nil && slices.Equal(v.values, col) && (distinct > 1 || tag != "" && v.Tag == tag) {
			return v
		}
	}
	name := tagName(tag) + "ID"
	if tag == "" || strings.IndexFunc(tag, unicode.IsLetter) < 0 {
		name = goName(k.Attr)
	}
	taken := methodNames()
	for _, f := range e.Fields {
		taken[f.Go] = true
	}
	for _, v := range e.Vars {
		taken[v.Go] = true
	}
	v := &Var{Go: unique(name, taken), Tag: tag, values: col}
	e.Vars = append(e.Vars, v)
	return v
}

func matches(e *Entity, attr string, col []string) bool {
	for j, it := range e.Samples {
		s, ok := it[attr].(*types.AttributeValueMemberS)
		if !ok || s.Value != col[j] {
			return false
		}
	}
	return true
}

// tagName is a key tag as a Go name: "USER" User, "sh" Sh.
func tagName(tag string) string {
	if strings.ToUpper(tag) == tag {
		tag = strings.ToLower(tag)
	}
	return goName(tag)
}

// goName turns an attribute or facet name into an exported Go name:
// "GSI1-PK" GSI1PK, "first name" FirstName, "#likes" Likes.
func goName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r) // any letter or digit: Go identifiers are Unicode
	}
	out := b.String()
	if first, _ := utf8.DecodeRuneInString(out); out == "" || !unicode.IsUpper(first) {
		out = "A" + out // a digit, or a letter without case (名前): exported all the same
	}
	return out
}

func unique(name string, taken map[string]bool) string {
	out := name
	for i := 2; taken[out]; i++ {
		out = fmt.Sprintf("%s%d", name, i)
	}
	taken[out] = true
	return out
}

// uniqueNames gives entities distinct Go names.
func uniqueNames(es []*Entity) {
	taken := map[string]bool{"Entity": true, "Table": true, "Design": true, "Schema": true, "Samples": true, "Grown": true, "PageSize": true}
	for _, e := range es {
		e.Go = unique(e.Go, taken)
	}
}

// methodNames are the generated entity's methods, which no field or key
// part may be named.
func methodNames() map[string]bool { return map[string]bool{"Item": true} }
