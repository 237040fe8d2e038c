package workbench_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

// controlModel is mcp_shop.json with control characters in every kind of text
// a model carries: a pattern's description (a terminal escape and a line
// that spoofs the import's own output), an external pattern's reason (a
// window title sequence, a carriage return), an attribute's name and a
// sample's text value (a right-to-left override and an escape).
func controlModel(t *testing.T) []byte {
	t.Helper()
	return edited(t, "mcp_shop.json", func(m map[string]any) {
		aps := m["access_patterns"].([]any)
		aps[0].(map[string]any)["description"] = "Get a profile\x1b[31m\nimport-model: wrote design spoofed"
		aps[12].(map[string]any)["reason"] = "mail\x1b]0;title\a service\r\n  note: spoofed"
		aps[13].(map[string]any)["description"] = "Two\x1b[2J commands\u202e"
		item := m["items"].(map[string]any)["Shop"].([]any)[0].(map[string]any)["PutRequest"].(map[string]any)["Item"].(map[string]any)
		item["nick\x1b[8mname"] = map[string]any{"S": "hidden\u202etext\x1b[0m"}
	})
}

// raw reports the first control or text-reordering character in s other
// than a line break or a tab, which a file may hold.
func raw(s string) (rune, bool) {
	for _, r := range s {
		if r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			return r, true
		}
	}
	return 0, false
}

// A model's text reaches the generated README and Go only escaped: no
// file of the design holds a control character raw, the README has no
// line the model's text began, and the catalog's names and docs, which
// catalog, verify and bench print, are Printable too.
func TestModelTextReachesTheFilesEscaped(t *testing.T) {
	d := shapetest.Infer(t, "mcpshop", controlModel(t))
	files, err := workbench.Files(d, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if r, ok := raw(string(f.Content)); ok {
			t.Errorf("%s holds %U raw", f.Path, r)
		}
		if strings.HasSuffix(f.Path, "README.md") {
			for _, line := range strings.Split(string(f.Content), "\n") {
				if strings.HasPrefix(line, "import-model:") || strings.HasPrefix(strings.TrimSpace(line), "note: spoofed") {
					t.Errorf("the README has a line the model's text began: %q", line)
				}
			}
			for _, want := range []string{`Get a profile\x1b[31m\nimport-model: wrote design spoofed`, `mail\x1b]0;title\a service\r\n  note: spoofed`, `Two\x1b[2J commands\u202e`} {
				if !strings.Contains(string(f.Content), want) {
					t.Errorf("the README does not show %s escaped", want)
				}
			}
		}
		if strings.HasSuffix(f.Path, "catalog.go") && !strings.Contains(string(f.Content), `Name: "Get a profile\\x1b[31m\\nimport-model: wrote design spoofed"`) {
			t.Errorf("the catalog's name of pattern 1 is not the Printable text:\n%s", f.Content)
		}
	}
}

// What the import says as it goes (here the model's file name, which the
// user gave) and a model it refuses reach the terminal escaped. The
// import is stopped before it writes: its repository is an empty folder.
// (The design's notes, which the command prints, are checked on the
// command itself, in the fault suite.)
func TestModelTextReachesTheTerminalEscaped(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "shop\x1b[2J\nimport-model: wrote design spoofed.json")
	if err := os.WriteFile(model, controlModel(t), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	_, _ = workbench.Importer{Root: t.TempDir(), Log: &log}.Import(context.Background(), model, "mcpshop")
	if !strings.Contains(log.String(), `shop\x1b[2J\nimport-model: wrote design spoofed.json`) {
		t.Errorf("the import's log does not name the file escaped:\n%s", log.String())
	}
	if r, ok := raw(log.String()); ok {
		t.Errorf("the import's log holds %U raw:\n%q", r, log.String())
	}

	bad := `{"tables": [{"TableName": "Shop", "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}],
		"items": {"Shop": [{"PutRequest": {"Item": {"PK": {"S": "a"}, "x\u001b[2J\nimport-model: wrote": {"Q": "1"}}}}]}, "access_patterns": []}`
	_, err := modelfile.Parse([]byte(bad))
	if err == nil {
		t.Fatal("a sample with an unknown value type was read")
	}
	if r, ok := raw(err.Error()); ok {
		t.Errorf("the refusal holds %U raw: %q", r, err)
	}
	if !strings.Contains(err.Error(), `x\x1b[2J\nimport-model: wrote`) {
		t.Errorf("the refusal does not name the attribute escaped: %q", err)
	}
}
