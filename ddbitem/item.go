package ddbitem

import (
	"encoding/base64"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is a whole item as DynamoDB stores it; nil means no item.
type Item = map[string]types.AttributeValue

// Schema is what the item rules need of a table: its key attributes and its
// secondary indexes, resolved (see Index).
type Schema struct {
	PK, SK  string
	Indexes []Index // GSIs first, then LSIs
	// Types is each key attribute's type, as the table's attribute
	// definitions give it, which a key condition's values must match;
	// nil: not known, and not checked.
	Types map[string]types.ScalarAttributeType
}

// Index is a secondary index resolved against its table: PK is the index's
// partition key attribute (an LSI's is the table's), Projection is never
// empty (DynamoDB's default is ALL).
//
// A GSI's key may be made of several attributes (a multi-attribute key):
// PKs and SKs then list them in the key's order, and PK and SK name the
// first of each. Read the key through PartitionAttrs and SortAttrs, which
// serve both forms.
type Index struct {
	Name       string
	PK, SK     string
	PKs, SKs   []string
	Local      bool
	Projection types.ProjectionType
	NonKey     []string // projected attributes when Projection is INCLUDE
}

// PartitionAttrs is the attributes of ix's partition key, in order.
func (ix Index) PartitionAttrs() []string { return attrs(ix.PKs, ix.PK) }

// SortAttrs is the attributes of ix's sort key, in order; none when ix
// has no sort key.
func (ix Index) SortAttrs() []string { return attrs(ix.SKs, ix.SK) }

// KeyAttrs is the attributes of ix's key: its partition key's, then its
// sort key's.
func (ix Index) KeyAttrs() []string {
	return append(append([]string{}, ix.PartitionAttrs()...), ix.SortAttrs()...)
}

// MultiAttribute reports whether either of ix's keys is made of more than
// one attribute.
func (ix Index) MultiAttribute() bool { return len(ix.PKs) > 1 || len(ix.SKs) > 1 }

func attrs(list []string, one string) []string {
	switch {
	case len(list) > 0:
		return list
	case one != "":
		return []string{one}
	}
	return nil
}

// Index returns the index named name.
func (s Schema) Index(name string) (Index, bool) {
	for _, ix := range s.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// PartitionKey is the partition key attribute of index name, or of the
// table when name is "" or no index of s; the first of them when the
// index's partition key is made of several (see PartitionAttrs).
func (s Schema) PartitionKey(name string) string {
	if a := s.PartitionAttrs(name); len(a) > 0 {
		return a[0]
	}
	return ""
}

// PartitionAttrs is the attributes of the partition key of index name, or
// of the table when name is "" or no index of s.
func (s Schema) PartitionAttrs(name string) []string {
	if ix, ok := s.Index(name); ok {
		return ix.PartitionAttrs()
	}
	return attrs(nil, s.PK)
}

// keyOf is the partition and sort key attributes of index name, or of the
// table when name is "" or no index of s.
func (s Schema) keyOf(name string) (pks, sks []string) {
	if ix, ok := s.Index(name); ok {
		return ix.PartitionAttrs(), ix.SortAttrs()
	}
	return attrs(nil, s.PK), attrs(nil, s.SK)
}

// KeyText renders a key attribute's value as text: strings and numbers as
// they are, binaries in base64; a missing or non-key value is "".
func KeyText(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

// PartitionText is the partition key value item holds under attrs (a
// key's attributes, in order), as people read it and as placement hashes
// it: KeyText of the value for a key of one attribute; for a
// multi-attribute key each attribute named with its value,
// "tenantId=t1, regionCode=eu". "" when item lacks one of them.
func PartitionText(attrs []string, item Item) string {
	if len(attrs) == 1 {
		return KeyText(item[attrs[0]])
	}
	var b strings.Builder
	for i, a := range attrs {
		t := KeyText(item[a])
		if t == "" {
			return ""
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a)
		b.WriteByte('=')
		b.WriteString(t)
	}
	return b.String()
}

// PartitionText is the partition key value entry e holds in ix
// (ddbitem.PartitionText of its partition key attributes).
func (ix Index) PartitionText(e Item) string {
	if len(ix.PKs) == 0 {
		return KeyText(e[ix.PK])
	}
	return PartitionText(ix.PKs, e)
}

// KeyID identifies the item whose key attributes item holds (a whole item
// or only its key), for maps of items: each key value tagged with its type,
// so that the string "1" and the number 1 stay apart, and numbers by their
// value, so that 1 and 1.0 name one item as they do in DynamoDB. ok is
// false when a key attribute is missing or not a string, number or binary.
func (s Schema) KeyID(item Item) (id string, ok bool) {
	var b strings.Builder
	for _, attr := range [2]string{s.PK, s.SK} {
		if attr == "" {
			continue
		}
		switch v := item[attr].(type) {
		case *types.AttributeValueMemberS:
			b.WriteByte('S')
			b.WriteString(v.Value)
		case *types.AttributeValueMemberN:
			b.WriteByte('N')
			b.WriteString(CanonicalNumber(v.Value))
		case *types.AttributeValueMemberB:
			b.WriteByte('B')
			b.WriteString(base64.StdEncoding.EncodeToString(v.Value))
		default:
			return "", false
		}
		b.WriteByte(0)
	}
	return b.String(), true
}

// KeyText is item's primary key as people read it: the partition key's
// text (KeyText), then " / " and the sort key's when the table has one.
func (s Schema) KeyText(item Item) string {
	t := KeyText(item[s.PK])
	if s.SK != "" {
		t += " / " + KeyText(item[s.SK])
	}
	return t
}

// Key returns the primary key attributes item holds (all of them or not).
func (s Schema) Key(item Item) Item {
	k := make(Item, 2)
	for _, attr := range [2]string{s.PK, s.SK} {
		if v, ok := item[attr]; ok && attr != "" {
			k[attr] = v
		}
	}
	return k
}
