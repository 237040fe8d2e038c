package modelfile

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// modelledIndexes are the members of a CreateTable input that list the
// index kinds the harness models.
var modelledIndexes = []string{"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}

// unmodelledIndexes refuses a table of an MCP data model that declares an
// index of a kind the harness does not model (a vector index, in
// VectorIndexes, or any other list of indexes CreateTable may come to
// take), naming it: its specs could not prove it nor the capacity model
// measure it, so importing the rest silently would leave out a part of
// the design.
// Source: https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html
func unmodelledIndexes(tables json.RawMessage) error {
	var ts []map[string]json.RawMessage
	if json.Unmarshal(tables, &ts) != nil {
		return nil // not a list of objects: the full read says what is wrong
	}
	for i, t := range ts {
		for _, member := range slices.Sorted(maps.Keys(t)) {
			if slices.Contains(modelledIndexes, member) || !strings.HasSuffix(strings.ToLower(member), "indexes") {
				continue
			}
			var ixs []struct{ IndexName string }
			_ = json.Unmarshal(t[member], &ixs)
			kind := strings.ToLower(strings.TrimSuffix(member, "Indexes"))
			for j, ix := range ixs {
				return PathErr(fmt.Sprintf("$.tables[%d].%s[%d]", i, member, j),
					fmt.Sprintf("index %q is a %s index (%s), a kind the harness does not model: it models global and local secondary indexes only, so no spec could prove it nor the capacity model measure it; take %s out of the model (and the access patterns that use it) to import the rest, and test that index against DynamoDB itself", ix.IndexName, kind, member, member))
			}
			if len(ixs) == 0 && string(t[member]) != "null" && string(t[member]) != "[]" {
				return PathErr(fmt.Sprintf("$.tables[%d].%s", i, member),
					fmt.Sprintf("%s is a kind of index the harness does not model (global and local secondary indexes only): take it out of the model to import the rest", member))
			}
		}
	}
	return nil
}

// indexKind is whose key a KeySchema is: the table's, a GSI's or an LSI's.
type indexKind int

const (
	tableKey indexKind = iota
	globalKey
	localKey
)

// multiAttributeKey refuses a key of several attributes of one kind
// where DynamoDB refuses it, naming the key's attributes in order: on the
// table or an LSI (only a GSI's key may have several), or a GSI's of more
// than designs.MaxKeyAttributes HASH or RANGE entries. A GSI's key within
// those bounds is imported as a multi-attribute key.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
func multiAttributeKey(path string, kind indexKind, index string, hash, rng []string) error {
	if len(hash) <= 1 && len(rng) <= 1 {
		return nil
	}
	switch kind {
	case tableKey:
		return PathErr(path, fmt.Sprintf("the table's key has %s: a table's key is one HASH attribute and at most one RANGE attribute (only a GSI's may have several): key the table by one attribute each, and move the others to a GSI's key", keyParts(hash, rng)))
	case localKey:
		return PathErr(path, fmt.Sprintf("LSI %q has %s: an LSI's key is the table's partition key and one RANGE attribute (only a GSI's may have several): make it a GSI, or give it one RANGE attribute", index, keyParts(hash, rng)))
	}
	if len(hash) > designs.MaxKeyAttributes || len(rng) > designs.MaxKeyAttributes {
		return PathErr(path, fmt.Sprintf("index %q has %s: DynamoDB takes up to %d HASH and %d RANGE attributes in a GSI's key: drop the extra ones (or fold them into one attribute)", index, keyParts(hash, rng), designs.MaxKeyAttributes, designs.MaxKeyAttributes))
	}
	return nil
}

// keyParts names a key's attributes by kind, in the key schema's order:
// "partition key (tenantId, region), sort key (round, bracket)".
func keyParts(hash, rng []string) string {
	out := fmt.Sprintf("partition key (%s)", strings.Join(hash, ", "))
	if len(rng) > 0 {
		out += fmt.Sprintf(", sort key (%s)", strings.Join(rng, ", "))
	}
	return out
}
