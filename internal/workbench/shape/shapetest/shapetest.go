// Package shapetest holds what the specs of the shape inference and of the
// import share: a model's first table inferred, the test failing on error.
package shapetest

import (
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// Infer parses model, a file's bytes or its text, and infers the design
// of its first table, named name.
func Infer[M []byte | string](t testing.TB, name string, model M) *shape.Design {
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
