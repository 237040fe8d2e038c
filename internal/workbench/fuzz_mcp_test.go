package workbench_test

import (
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
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

var (
	plainMCPOnce sync.Once
	plainMCP     *plain
	plainMCPErr  error
)

func checkMCPText(t *testing.T, at int, s string) string {
	t.Helper()
	text := mcpText
	text[at] = s
	d, files, err := generate(mcpModel(text))
	if errors.Is(err, workbench.ErrBadModel) || errors.Is(err, scaffold.ErrRefused) {
		return "refused: " + err.Error()
	}
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		t.Errorf("%q in place %d: %s", s, at, msg)
		return ""
	}
	plainMCPOnce.Do(func() {
		pd, pfiles, err := generate(mcpModel(mcpText))
		if err != nil {
			plainMCPErr = err
			return
		}
		plainMCP = &plain{d: pd, nodes: map[string][]node{}}
		for path, src := range pfiles {
			if strings.HasSuffix(path, ".go") {
				fset := token.NewFileSet()
				file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
				if err != nil {
					plainMCPErr = err
					return
				}
				plainMCP.nodes[path] = nodes(fset, file)
			}
		}
	})
	if plainMCPErr != nil {
		t.Fatalf("the plain MCP model: %v", plainMCPErr)
	}
	if got, want := shape(d), shape(plainMCP.d); got != want {
		return "read otherwise:\n" + got + "\nnot\n" + want
	}
	for path, src := range files {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Errorf("%q in place %d: %s does not parse: %v", s, at, path, err)
			continue
		}
		got, want := nodes(fset, file), plainMCP.nodes[path]
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%q in place %d: %s holds code the plain model's does not: %s where the plain model has %s, at\n%s",
				s, at, path, got[i].kind, at0(want, i), around(src, got[i].pos.Line))
		}
	}
	return ""
}
