package workbench_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The free text of an MCP data model's access patterns, by where it sits.
const (
	mcpAtID       = iota // a pattern's ID
	mcpAtName            // its description
	mcpAtPutValue        // a value a PutItem writes
	mcpAtSetValue        // a value an UpdateItem sets
	mcpAtAbsent          // a key no sample has, which a TransactGetItems reads
	mcpAtReason          // why a pattern is not DynamoDB's
	mcpPlaces
)

var mcpText = [mcpPlaces]string{"1", "get a profile", "Cy", "2024-04-01", "nobody", "a mail service sends it"}

// shellQuoted is s between single quotes, as a shell reads it back.
func shellQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// jsonText is v as JSON.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// mcpModel is an MCP data model of one table, a few samples and patterns
// of each kind, with text[i] in place i.
func mcpModel(text [mcpPlaces]string) []byte {
	s := func(v string) map[string]any { return map[string]any{"S": v} }
	key := func(pk, sk string) map[string]any { return map[string]any{"PK": s(pk), "SK": s(sk)} }
	item := func(pk, sk, name string) any {
		return map[string]any{"PutRequest": map[string]any{"Item": map[string]any{"PK": s(pk), "SK": s(sk), "name": s(name)}}}
	}
	cmd := func(op string, opts ...string) string {
		return "aws dynamodb " + op + " --table-name Shop " + strings.Join(opts, " ")
	}
	pattern := func(id, name, op, impl string) map[string]any {
		return map[string]any{"pattern": id, "description": name, "table": "Shop", "dynamodb_operation": op, "implementation": impl}
	}
	model := map[string]any{
		"tables": []any{map[string]any{"TableName": "Shop", "BillingMode": "PAY_PER_REQUEST",
			"AttributeDefinitions": []any{map[string]any{"AttributeName": "PK", "AttributeType": "S"}, map[string]any{"AttributeName": "SK", "AttributeType": "S"}},
			"KeySchema":            []any{map[string]any{"AttributeName": "PK", "KeyType": "HASH"}, map[string]any{"AttributeName": "SK", "KeyType": "RANGE"}}}},
		"items": map[string]any{"Shop": []any{item("USER#u1", "PROFILE", "Ann"), item("USER#u2", "PROFILE", "Bo"), item("USER#u1", "NOTE#1", "hi")}},
		"access_patterns": []any{
			pattern(text[mcpAtID], text[mcpAtName], "GetItem", cmd("get-item", "--key", shellQuoted(jsonText(key("USER#u1", "PROFILE"))))),
			pattern("2", "a user's items", "Query", cmd("query", "--key-condition-expression", shellQuoted("#pk = :pk"),
				"--expression-attribute-names", shellQuoted(`{"#pk": "PK"}`), "--expression-attribute-values", shellQuoted(jsonText(map[string]any{":pk": s("USER#u1")})))),
			pattern("3", "sign up", "PutItem", cmd("put-item", "--item", shellQuoted(jsonText(map[string]any{"PK": s("USER#u3"), "SK": s("PROFILE"), "name": s(text[mcpAtPutValue])})))),
			pattern("4", "seen", "UpdateItem", cmd("update-item", "--key", shellQuoted(jsonText(key("USER#u2", "PROFILE"))), "--update-expression", shellQuoted("SET #s = :s"),
				"--expression-attribute-names", shellQuoted(`{"#s": "seen"}`), "--expression-attribute-values", shellQuoted(jsonText(map[string]any{":s": s(text[mcpAtSetValue])})))),
			pattern("5", "both", "TransactGetItems", "aws dynamodb transact-get-items --transact-items "+shellQuoted(jsonText([]any{
				map[string]any{"Get": map[string]any{"TableName": "Shop", "Key": key("USER#u1", "PROFILE")}},
				map[string]any{"Get": map[string]any{"TableName": "Shop", "Key": key("USER#"+text[mcpAtAbsent], "PROFILE")}}}))),
			map[string]any{"pattern": "6", "description": "mail", "reason": text[mcpAtReason]},
		},
	}
	return []byte(jsonText(model))
}

// FuzzModelPatternsHoldOnlyWhatTheyWrote puts text in one place of an MCP
// data model's access patterns and checks that the generated files parse
// and hold the same code as the plain model's.
func FuzzModelPatternsHoldOnlyWhatTheyWrote(f *testing.F) {
	for _, s := range hostile {
		for at := range mcpPlaces {
			f.Add(uint8(at), s)
		}
	}
	f.Fuzz(func(t *testing.T, at uint8, s string) {
		t.Parallel()
		why := checkMCPText(t, int(at)%mcpPlaces, s)
		switch {
		case why != "" && slices.Contains(hostile, s):
			t.Errorf("%q in place %d compared nothing, which it must: %s", s, int(at)%mcpPlaces, why)
		case why != "":
			t.Skip(why)
		}
	})
}

// checkMCPText generates the MCP model with s in place at and compares
// it with the plain model's (compareWithPlain).
func checkMCPText(t *testing.T, at int, s string) string {
	t.Helper()
	text := mcpText
	text[at] = s
	return compareWithPlain(t, at, s, mcpModel(text), func() *plain {
		return plainModel(t, "MCP", func() []byte { return mcpModel(mcpText) })
	})
}
