package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench"
)

// A design whose generated code does not compile is caught before the
// import reports success (the caller then takes it back).
func TestVetImportedCatchesCodeThatDoesNotCompile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                 "module example.com/vetcheck\n\ngo 1.26\n",
		"fixtures/fixtures.go":   "package fixtures\n",
		"scenarios/scenarios.go": "package scenarios\n",
		"designs/all/all.go":     "package all\n",
		"designs/good/good.go":   "package good\n\nfunc Fine() int { return 1 }\n",
		"designs/bad/bad.go":     "package bad\n\nfunc Broken() int { return \"not an int\" }\n",
	}
	for path, src := range files {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imported := func(name string) []workbench.Imported {
		return []workbench.Imported{{Design: &workbench.Design{Name: name}}}
	}
	if err := vetImported(context.Background(), root, imported("good")); err != nil {
		t.Errorf("vetImported(good) = %v, want nil", err)
	}
	err := vetImported(context.Background(), root, imported("bad"))
	if err == nil || !strings.Contains(err.Error(), "does not pass go vet") || !strings.Contains(err.Error(), "bad.go") {
		t.Errorf("vetImported(bad) = %v, want the vet failure naming bad.go", err)
	}
}
