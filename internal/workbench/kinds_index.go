package workbench

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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
		for _, member := range sortedKeys(t) {
			if slices.Contains(modelledIndexes, member) || !strings.HasSuffix(strings.ToLower(member), "indexes") {
				continue
			}
			var ixs []struct{ IndexName string }
			_ = json.Unmarshal(t[member], &ixs)
			kind := strings.ToLower(strings.TrimSuffix(member, "Indexes"))
			for j, ix := range ixs {
				return pathErr(fmt.Sprintf("$.tables[%d].%s[%d]", i, member, j),
					fmt.Sprintf("index %q is a %s index (%s), a kind the harness does not model: it models global and local secondary indexes only, so no spec could prove it nor the capacity model measure it; take %s out of the model (and the access patterns that use it) to import the rest, and test that index against DynamoDB itself", ix.IndexName, kind, member, member))
			}
			if len(ixs) == 0 && string(t[member]) != "null" && string(t[member]) != "[]" {
				return pathErr(fmt.Sprintf("$.tables[%d].%s", i, member),
					fmt.Sprintf("%s is a kind of index the harness does not model (global and local secondary indexes only): take it out of the model to import the rest", member))
			}
		}
	}
	return nil
}

// multiAttributeKey refuses an index whose key is made of several
// attributes of one kind (up to four HASH and four RANGE attributes, a
// multi-attribute GSI key), naming the index and its attributes in
// order. It is the one place the import meets such a key: when
// designs.Index carries a key of several attributes, the import builds
// it here instead of refusing.
// Source: https://github.com/awslabs/mcp/blob/main/src/dynamodb-mcp-server/awslabs/dynamodb_mcp_server/prompts/json_generation_guide.md (Multi-Attribute GSI Keys)
func multiAttributeKey(path, index string, hash, rng []string) error {
	if index == "" {
		return pathErr(path, fmt.Sprintf("the table's key has %s: a table's key is one HASH attribute and at most one RANGE attribute (only a GSI's may have several)", keyParts(hash, rng)))
	}
	return pathErr(path, fmt.Sprintf("index %q has a multi-attribute key, %s: the harness's schema keys an index by one partition key attribute and one sort key attribute, so it cannot import this index yet; key it by one attribute each (a concatenated value such as %q) to import the design now",
		index, keyParts(hash, rng), strings.Join(hash, "#")))
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
