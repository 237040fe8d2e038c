package designs

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// ItemSchema resolves s for the item rules (package ddbitem): GSIs then
// LSIs, an LSI with the table's partition key, every projection defaulted
// to ALL as DynamoDB defaults it.
func (s Schema) ItemSchema() ddbitem.Schema {
	out := ddbitem.Schema{PK: s.PK, SK: s.SK, Indexes: make([]ddbitem.Index, 0, len(s.GSIs)+len(s.LSIs))}
	add := func(ix Index, pk string, local bool) {
		p := ix.Projection
		if p == "" {
			p = types.ProjectionTypeAll
		}
		out.Indexes = append(out.Indexes, ddbitem.Index{Name: ix.Name, PK: pk, SK: ix.SK, Local: local, Projection: p, NonKey: ix.NonKey})
	}
	for _, ix := range s.GSIs {
		add(ix, ix.PK, false)
	}
	for _, ix := range s.LSIs {
		add(ix, s.PK, true)
	}
	return out
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
