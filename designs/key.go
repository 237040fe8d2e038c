package designs

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// ItemSchema resolves s for the item rules (package ddbitem): GSIs then
// LSIs, an LSI with the table's partition key, every projection defaulted
// to ALL as DynamoDB defaults it, and the type of every key attribute
// (string unless Types says otherwise).
func (s Schema) ItemSchema() ddbitem.Schema {
	out := ddbitem.Schema{PK: s.PK, SK: s.SK, Indexes: make([]ddbitem.Index, 0, len(s.GSIs)+len(s.LSIs)),
		Types: map[string]types.ScalarAttributeType{}}
	add := func(ix Index, local bool) {
		r := ix.resolved()
		if r.Projection == "" {
			r.Projection = types.ProjectionTypeAll
		}
		if local {
			r.PK, r.PKs, r.Local = s.PK, nil, true
		}
		out.Indexes = append(out.Indexes, r)
	}
	for _, ix := range s.GSIs {
		add(ix, false)
	}
	for _, ix := range s.LSIs {
		add(ix, true)
	}
	out.Types[s.PK] = s.typeOf(s.PK)
	if s.SK != "" {
		out.Types[s.SK] = s.typeOf(s.SK)
	}
	for _, ix := range out.Indexes {
		for _, a := range ix.KeyAttrs() {
			out.Types[a] = s.typeOf(a)
		}
	}
	return out
}

// typeOf is the type of key attribute attr: Types', or string.
func (s Schema) typeOf(attr string) types.ScalarAttributeType {
	if t := s.Types[attr]; t != "" {
		return t
	}
	return types.ScalarAttributeTypeS
}

// KeyID identifies the item whose key attributes item holds
// (ddbitem.Schema.KeyID); ok is false when a key attribute is missing or
// not a string, number or binary.
func (s Schema) KeyID(item map[string]types.AttributeValue) (id string, ok bool) {
	return ddbitem.Schema{PK: s.PK, SK: s.SK}.KeyID(item)
}

// KeyOf returns item's primary key attributes and its KeyID; the error
// names a key attribute that is missing or of a type keys cannot have.
func (s Schema) KeyOf(item map[string]types.AttributeValue) (map[string]types.AttributeValue, string, error) {
	id, ok := s.KeyID(item)
	if !ok {
		return nil, "", fmt.Errorf("%w: item lacks a string, number or binary key attribute %s or %s", ErrInvalidInput, s.PK, s.SK)
	}
	return ddbitem.Schema{PK: s.PK, SK: s.SK}.Key(item), id, nil
}
