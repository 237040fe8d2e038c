package workbench_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/shape"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
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
	return shapetest.Infer(t, name, model)
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
