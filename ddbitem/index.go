package capacity

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// index is a secondary index resolved against its table: an LSI gets the
// table's partition key, and the projection its default.
type index struct {
	name       string
	pk, sk     string
	local      bool
	projection types.ProjectionType
	nonKey     []string
}

// indexes lists the schema's secondary indexes, GSIs first.
func indexes(s designs.Schema) []index {
	var out []index
	for _, ix := range s.GSIs {
		out = append(out, resolve(ix, ix.PK, false))
	}
	for _, ix := range s.LSIs {
		out = append(out, resolve(ix, s.PK, true))
	}
	return out
}

func resolve(ix designs.Index, pk string, local bool) index {
	p := ix.Projection
	if p == "" {
		p = types.ProjectionTypeAll
	}
	return index{name: ix.Name, pk: pk, sk: ix.SK, local: local, projection: p, nonKey: ix.NonKey}
}

// lookup finds the index named name.
func lookup(s designs.Schema, name string) (index, bool) {
	for _, ix := range indexes(s) {
		if ix.name == name {
			return ix, true
		}
	}
	return index{}, false
}

// entry is the item as index ix stores it: nil when the item lacks an index
// key attribute (a sparse index holds no entry for it). An entry holds the
// index keys, the table's keys and the projected attributes; ALL projects
// the whole item.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.StorageConsiderations
func entry(s designs.Schema, ix index, item Image) Image {
	if item == nil || item[ix.pk] == nil || (ix.sk != "" && item[ix.sk] == nil) {
		return nil
	}
	if ix.projection == types.ProjectionTypeAll {
		return item
	}
	e := Image{}
	for _, name := range []string{ix.pk, ix.sk, s.PK, s.SK} {
		if v, ok := item[name]; ok && name != "" {
			e[name] = v
		}
	}
	if ix.projection == types.ProjectionTypeInclude {
		for _, name := range ix.nonKey {
			if v, ok := item[name]; ok {
				e[name] = v
			}
		}
	}
	return e
}

// Entry returns the entry the named index (GSI or LSI) holds for item: the
// table's and the index's keys plus the projected attributes, the item
// itself for an ALL projection. It is nil when the index holds no entry for
// the item (sparse index) or the schema has no such index.
func Entry(s designs.Schema, indexName string, item Image) Image {
	ix, ok := lookup(s, indexName)
	if !ok {
		return nil
	}
	return entry(s, ix, item)
}

// EntrySize returns the size of the entry the named index holds for item,
// and false when it holds none (see Entry).
func EntrySize(s designs.Schema, indexName string, item Image) (int, bool) {
	e := Entry(s, indexName, item)
	return Size(e), e != nil
}

// sameValue reports whether two attribute values are equal, for key
// attributes and whole entries alike.
func sameValue(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberB:
		b, ok := b.(*types.AttributeValueMemberB)
		return ok && string(a.Value) == string(b.Value)
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		b, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(a.Value, b.Value)
	case *types.AttributeValueMemberNS:
		b, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(a.Value, b.Value)
	case *types.AttributeValueMemberBS:
		b, ok := b.(*types.AttributeValueMemberBS)
		if !ok || len(a.Value) != len(b.Value) {
			return false
		}
		as, bs := make([]string, len(a.Value)), make([]string, len(b.Value))
		for i := range a.Value {
			as[i], bs[i] = string(a.Value[i]), string(b.Value[i])
		}
		return sameSet(as, bs)
	case *types.AttributeValueMemberL:
		b, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(a.Value, b.Value, sameValue)
	case *types.AttributeValueMemberM:
		b, ok := b.(*types.AttributeValueMemberM)
		return ok && sameImage(a.Value, b.Value)
	}
	return false
}

// sameSet compares sets, which carry no order.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// sameImage reports whether two items hold the same attributes and values.
func sameImage(a, b Image) bool {
	if len(a) != len(b) {
		return false
	}
	for name, v := range a {
		if !sameValue(v, b[name]) {
			return false
		}
	}
	return true
}
