package workbench_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// mcpTable is an MCP data model of one table, Game, with extra members
// of its CreateTable input (JSON without the braces).
func mcpTable(extra string) []byte {
	return []byte(`{"tables": [{"TableName": "Game",
		"AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "tournamentId", "AttributeType": "S"},
			{"AttributeName": "region", "AttributeType": "S"}, {"AttributeName": "round", "AttributeType": "N"}, {"AttributeName": "bracket", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"` + extra + `}],
		"items": {"Game": [{"PutRequest": {"Item": {"PK": {"S": "g1"}}}}]}, "access_patterns": []}`)
}

// An index of a kind the harness does not model, or a key type DynamoDB
// does not have, is refused by name, with its path and what to do;
// nothing of the table is imported silently without it. (A GSI keyed by
// several attributes is imported: multikey_test.go.)
func TestIndexesTheHarnessDoesNotModelAreRefusedByName(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		want        []string
	}{
		{"a vector index", `, "VectorIndexes": [{"IndexName": "ByEmbedding", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}}]`,
			[]string{`$.tables[0].VectorIndexes[0]: index "ByEmbedding" is a vector index (VectorIndexes)`, "global and local secondary indexes only", "take VectorIndexes out of the model"}},
		{"another kind of index", `, "SearchIndexes": [{"IndexName": "Text"}]`,
			[]string{`$.tables[0].SearchIndexes[0]: index "Text" is a search index (SearchIndexes)`}},
		{"a key type DynamoDB does not have", `, "GlobalSecondaryIndexes": [{"IndexName": "ByRegion", "KeySchema": [{"AttributeName": "region", "KeyType": "VECTOR"}], "Projection": {"ProjectionType": "ALL"}}]`,
			[]string{`$.tables[0].GlobalSecondaryIndexes[0].KeySchema[0].KeyType: "VECTOR" is no key type DynamoDB has: write HASH or RANGE`}},
	} {
		_, err := modelfile.Parse(mcpTable(tc.extra))
		if !errors.Is(err, modelfile.ErrBadModel) {
			t.Errorf("%s: Parse = %v, want it refused as a bad model", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: the refusal\n%s\ndoes not say\n%s", tc.name, err, w)
			}
		}
	}
	if _, err := modelfile.Parse(mcpTable(`, "GlobalSecondaryIndexes": [{"IndexName": "ByRegion", "KeySchema": [{"AttributeName": "region", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}], "LocalSecondaryIndexes": []`)); err != nil {
		t.Errorf("a table with a GSI and an empty list of LSIs is refused: %v", err)
	}
}
