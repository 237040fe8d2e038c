package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// The check runs on what the import would write, before it is written:
// code only the plan holds is vetted as if in place, and the repository
// is left as it was, passed or not (the import writes it afterwards).
func TestVetImportedChecksThePlanBeforeItIsWritten(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                 "module example.com/vetcheck\n\ngo 1.26\n",
		"fixtures/fixtures.go":   "package fixtures\n",
		"scenarios/scenarios.go": "package scenarios\n",
		"designs/all/all.go":     "package all\n",
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
	planned := func(body string) []workbench.Imported {
		return []workbench.Imported{{Design: &shape.Design{Name: "planned"}, Plan: scaffold.Plan{
			Root: root, Names: scaffold.Names{Design: "planned"},
			Create: []scaffold.File{{Path: "designs/planned/planned.go", Content: []byte("package planned\n\n" + body)}},
			Change: []scaffold.File{{Path: "designs/all/all.go", Content: []byte("package all\n\nimport \"example.com/vetcheck/designs/planned\"\n\nvar N = planned.N()\n")}},
		}}}
	}
	if err := vetImported(t.Context(), root, planned("func N() int { return 1 }\n")); err != nil {
		t.Errorf("vetImported(a plan that compiles) = %v, want nil", err)
	}
	err := vetImported(t.Context(), root, planned("func N() int { return \"not an int\" }\n"))
	if err == nil || !strings.Contains(err.Error(), "does not pass go vet") || !strings.Contains(err.Error(), "planned.go") {
		t.Errorf("vetImported(a plan that does not compile) = %v, want the vet failure naming planned.go", err)
	}
	if _, err := os.Stat(filepath.Join(root, "designs", "planned")); !os.IsNotExist(err) {
		t.Errorf("designs/planned is on disk after the check (%v), want nothing written", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "designs/all/all.go")); string(b) != files["designs/all/all.go"] {
		t.Errorf("designs/all/all.go changed by the check: %q", b)
	}
}
