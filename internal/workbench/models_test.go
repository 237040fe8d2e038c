package workbench_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// inferred is the design the import infers from testdata/file's model,
// named name, after edit (nil: none) changed the model's text.
func inferred(t *testing.T, file, name string, edit func(string) string) *shape.Design {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	model := string(data)
	if edit != nil {
		model = edit(model)
	}
	return inferModel(t, name, model)
}

// edited is testdata/file's model decoded, changed by edit, and encoded
// again: a model with text or fields of a spec's own.
func edited(t *testing.T, file string, edit func(m map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// inferModel parses a model and infers the design of its first table.
func inferModel(t *testing.T, name, model string) *shape.Design {
	t.Helper()
	m, err := modelfile.Parse([]byte(model))
	if err != nil {
		t.Fatal(err)
	}
	d, err := shape.Infer(name, m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	return d
}
