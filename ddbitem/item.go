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
}

// Index is a secondary index resolved against its table: PK is the index's
// partition key attribute (an LSI's is the table's), Projection is never
// empty (DynamoDB's default is ALL).
type Index struct {
	Name       string
	PK, SK     string
	Local      bool
	Projection types.ProjectionType
	NonKey     []string // projected attributes when Projection is INCLUDE
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
// table when name is "" or no index of s.
func (s Schema) PartitionKey(name string) string {
	if ix, ok := s.Index(name); ok {
		return ix.PK
	}
	return s.PK
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
