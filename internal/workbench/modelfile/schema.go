package modelfile

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Schema is the table as a designs.Schema: keys and their types, indexes
// with their projections, billing. TypeAttribute is left to Infer, which
// reads it from the sample items.
func (t Table) Schema() designs.Schema {
	s := designs.Schema{PK: t.KeyAttributes.PartitionKey.AttributeName}
	scalars := map[string]types.ScalarAttributeType{}
	note := func(a Attribute) {
		if a.AttributeType == "N" || a.AttributeType == "B" {
			scalars[a.AttributeName] = scalar(a.AttributeType)
		}
	}
	note(t.KeyAttributes.PartitionKey)
	if sk := t.KeyAttributes.SortKey; sk != nil {
		s.SK = sk.AttributeName
		note(*sk)
	}
	for _, ix := range t.GlobalSecondaryIndexes {
		s.GSIs = append(s.GSIs, index(ix, false))
		for _, a := range KeyAttrs(ix.KeyAttributes) {
			note(a)
		}
	}
	for _, ix := range t.LocalSecondaryIndexes {
		s.LSIs = append(s.LSIs, index(ix, true))
		if sk := ix.KeyAttributes.SortKey; sk != nil {
			note(*sk)
		}
	}
	if len(scalars) > 0 {
		s.Types = scalars
	}
	// A model that gives throughput and no billing mode (Workbench's older
	// saves, a CreateTable input) is provisioned: throughput is only
	// provisioned capacity's.
	if t.BillingMode == "PROVISIONED" || t.BillingMode == "" && t.ProvisionedCapacity != nil {
		s.Billing = "PROVISIONED"
		if c := t.ProvisionedCapacity; c != nil {
			s.RCU, s.WCU = c.ProvisionedThroughput.ReadCapacityUnits, c.ProvisionedThroughput.WriteCapacityUnits
		}
	}
	return s
}

// typeIndexKeys gives each index key the model leaves untyped its type
// (see typed), once Parse has checked that the declarations agree, so that
// what reads the table later finds every key typed.
func (t *Table) typeIndexKeys() {
	for _, list := range [][]Index{t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes} {
		for i := range list {
			k := &list[i].KeyAttributes
			for _, a := range []*Attribute{&k.PartitionKey, k.SortKey} {
				if a != nil && a.AttributeName != "" {
					*a = t.typed(*a)
				}
			}
			for _, side := range [][]Attribute{k.PartitionKeys, k.SortKeys} {
				for j := range side {
					side[j] = t.typed(side[j])
				}
			}
		}
	}
}

// KeyNames are the key attributes of the table and of its indexes.
func (t Table) KeyNames() []string {
	keys := []KeyAttributes{t.KeyAttributes}
	for _, ix := range slices.Concat(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes) {
		keys = append(keys, ix.KeyAttributes)
	}
	var out []string
	for _, k := range keys {
		for _, a := range KeyAttrs(k) {
			out = append(out, a.AttributeName)
		}
	}
	return out
}

// typed fills an index key's type from the table's declarations when the
// index leaves it out: the table's own keys, its attributes, then another
// index that types it; S when none does.
func (t Table) typed(a Attribute) Attribute {
	if a.AttributeType != "" {
		return a
	}
	declared := slices.Concat(KeyAttrs(t.KeyAttributes), t.NonKeyAttributes)
	for _, ix := range slices.Concat(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes) {
		declared = append(declared, KeyAttrs(ix.KeyAttributes)...)
	}
	for _, d := range declared {
		if d.AttributeName == a.AttributeName && d.AttributeType != "" {
			return d
		}
	}
	a.AttributeType = "S"
	return a
}

func scalar(t string) types.ScalarAttributeType {
	if t == "N" {
		return types.ScalarAttributeTypeN
	}
	return types.ScalarAttributeTypeB
}

func index(ix Index, local bool) designs.Index {
	out := designs.Index{Name: ix.IndexName}
	k := ix.KeyAttributes
	names := func(as []Attribute) (out []string) {
		for _, a := range as {
			out = append(out, a.AttributeName)
		}
		return out
	}
	switch {
	case local:
	case len(k.PartitionKeys) > 0:
		out.PKs = names(k.PartitionKeys)
	default:
		out.PK = k.PartitionKey.AttributeName
	}
	switch {
	case len(k.SortKeys) > 0:
		out.SKs = names(k.SortKeys)
	case k.SortKey != nil:
		out.SK = k.SortKey.AttributeName
	}
	switch ix.Projection.ProjectionType {
	case "KEYS_ONLY":
		out.Projection = types.ProjectionTypeKeysOnly
	case "INCLUDE":
		out.Projection = types.ProjectionTypeInclude
		out.NonKey = append([]string(nil), ix.Projection.NonKeyAttributes...)
	}
	return out
}
