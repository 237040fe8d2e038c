package workbench_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// repo copies what an import reads and changes of the repository (go.mod,
// the two registries, the fixtures and scenarios packages it must not
// collide with) into a temporary root.
func repo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files, err := repoFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join("../..", rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// repoFiles lists repo's files, relative to the repository root. go list
// names them, not a read of their folders: go test's cache keys a test on
// the folders it reads, mtime included, and every Ginkgo run of those
// packages writes and removes its binary there, so a glob would make this
// package's tests run again in every make verify.
var repoFiles = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "list", "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .TestGoFiles}}{{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}
{{end}}`, "../../designs/all", "../../scenarios", "../../fixtures").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	top, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	files := []string{"go.mod"}
	for _, f := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(top, f)
		if err != nil {
			return nil, err
		}
		files = append(files, rel)
	}
	return files, nil
})

// tree is a digest of every file under root, with its path.
func tree(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %x\n", path, sha256.Sum256(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func writeModel(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportOfABadModelWritesNothing(t *testing.T) {
	root := repo(t)
	before := tree(t, root)
	for name, model := range map[string][]byte{
		"not JSON":                   []byte("not json"),
		"no DataModel":               []byte(`{"ModelName": "x"}`),
		"a sample missing its key":   edit(t, `"SK": { "S": "PROFILE" },`, ``),
		"two samples with one key":   edit(t, `"S": "USER#bob"`, `"S": "USER#alice"`),
		"a facet naming no sort key": edit(t, `"SortKeyAlias": "SK"`, `"SortKeyAlias": ""`),
	} {
		_, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, model), "gallery")
		if !errors.Is(err, modelfile.ErrBadModel) {
			t.Errorf("%s: Import: %v, want ErrBadModel", name, err)
		}
	}
	if _, err := (workbench.Importer{Root: root}).Import(context.Background(), filepath.Join(t.TempDir(), "missing.json"), "gallery"); !errors.Is(err, modelfile.ErrBadModel) {
		t.Errorf("a missing file: Import: %v, want ErrBadModel", err)
	}
	if after := tree(t, root); after != before {
		t.Errorf("a refused import changed the repository")
	}
}

func TestImportWritesTheDesignWiresItAndRefusesItsNameTwice(t *testing.T) {
	root := repo(t)
	done, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, gallery(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].Design.Name != "gallery" {
		t.Fatalf("Import wrote %d designs, want gallery (the model's name, lower case)", len(done))
	}
	for _, f := range []string{"designs/gallery/schema.go", "designs/gallery/patterns_test.go", "fixtures/gallery.go", "scenarios/gallery.go"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for f, line := range map[string]string{"designs/all/all.go": "gallery.Design", "scenarios/scenarios.go": "GallerySteady"} {
		if b, _ := os.ReadFile(filepath.Join(root, f)); !strings.Contains(string(b), line) {
			t.Errorf("%s does not list %s", f, line)
		}
	}
	before := tree(t, root)
	if _, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, gallery(t)), "gallery"); !errors.Is(err, scaffold.ErrRefused) {
		t.Errorf("a second import as gallery: %v, want refused", err)
	}
	if tree(t, root) != before {
		t.Errorf("the refused second import changed the repository")
	}
}

// A model of two tables makes a design of each, named after the table;
// when the second cannot be written, neither is.
// withSecondTable is the gallery model with a copy of its table named name.
func withSecondTable(t *testing.T, name string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(gallery(t), &m); err != nil {
		t.Fatal(err)
	}
	tables := m["DataModel"].([]any)
	second := map[string]any{}
	for k, v := range tables[0].(map[string]any) {
		second[k] = v
	}
	second["TableName"] = name
	m["DataModel"] = append(tables, second)
	b, _ := json.Marshal(m)
	return b
}

func TestImportMakesADesignPerTable(t *testing.T) {
	b := withSecondTable(t, "Archive")

	root := repo(t)
	done, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, b), "pics")
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 || done[0].Design.Name != "picsgallery" || done[1].Design.Name != "picsarchive" {
		t.Fatalf("Import wrote %v, want picsgallery and picsarchive", done)
	}
	all, _ := os.ReadFile(filepath.Join(root, "designs/all/all.go"))
	if !strings.Contains(string(all), "picsgallery.Design") || !strings.Contains(string(all), "picsarchive.Design") {
		t.Errorf("designs/all/all.go lists not both:\n%s", all)
	}

	root = repo(t)
	if err := os.MkdirAll(filepath.Join(root, "designs", "picsarchive"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	if _, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, b), "pics"); !errors.Is(err, scaffold.ErrRefused) {
		t.Errorf("with designs/picsarchive taken: %v, want refused", err)
	}
	if tree(t, root) != before {
		t.Errorf("the refused import wrote the first table's design")
	}
}

// Two tables whose names make one design name are refused before anything
// is written, naming both.
func TestImportRefusesTwoTablesOfOneDesignName(t *testing.T) {
	b := withSecondTable(t, "gallery-")
	root := repo(t)
	before := tree(t, root)
	_, err := (workbench.Importer{Root: root}).Import(context.Background(), writeModel(t, b), "pics")
	if !errors.Is(err, modelfile.ErrBadModel) || !strings.Contains(err.Error(), `tables "Gallery" and "gallery-" would both become design picsgallery`) {
		t.Errorf("Import: %v, want a refusal naming both tables", err)
	}
	if tree(t, root) != before {
		t.Errorf("the refused import changed the repository")
	}
}

// A model path that is not a regular file, or a file past MaxModelBytes,
// is refused at once as a bad model: a named pipe with no writer, a
// device that never ends and a folder each used to hang the import or
// fill its memory.
func TestImportRefusesWhatIsNotAModelFile(t *testing.T) {
	t.Parallel()
	root := repo(t)
	before := tree(t, root)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "model.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const limit = 64 << 10 // as MaxModelBytes, smaller: the test reads it whole
	if err := os.Truncate(huge, limit+1); err != nil {
		t.Fatal(err)
	}
	for path, says := range map[string]string{fifo: "a named pipe", "/dev/zero": "a device", dir: "a folder", huge: "larger than 64 KB"} {
		done := make(chan error, 1)
		go func() {
			_, err := (workbench.Importer{Root: root, MaxBytes: limit}).Import(context.Background(), path, "gallery")
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, modelfile.ErrBadModel) || !strings.Contains(err.Error(), says) || strings.Count(err.Error(), path) != 1 {
				t.Errorf("%s: Import: %v, want a bad model naming the path once and saying %q", path, err, says)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: Import still reading after a minute", path)
		}
	}
	if tree(t, root) != before {
		t.Errorf("a refused import changed the repository")
	}
}

// An import stopped at any step, by a context that ends while it checks
// the model or while its check of the written code runs, returns the
// context's error with the repository as it was.
func TestImportStoppedLeavesTheTreeAsItWas(t *testing.T) {
	model := writeModel(t, gallery(t))
	for _, at := range []string{"read", "checked", "rendered", "check"} {
		root := repo(t)
		before := tree(t, root)
		ctx, cancel := context.WithCancel(context.Background())
		im := workbench.Importer{Root: root, Log: cancelOn{at, cancel}, Check: func(ctx context.Context, _ []workbench.Imported) error {
			if at == "check" {
				cancel()
			}
			return ctx.Err()
		}}
		_, err := im.Import(ctx, model, "gallery")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stopped at %s: Import: %v, want context.Canceled", at, err)
		}
		if tree(t, root) != before {
			t.Errorf("stopped at %s: the repository changed", at)
		}
	}
}

// cancelOn is a progress log that ends the import's context when it
// hears a line with word in it.
type cancelOn struct {
	word   string
	cancel func()
}

func (c cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.word) {
		c.cancel()
	}
	return len(p), nil
}

// A design named as a local of the generated code is refused up front,
// where it used to fail go vet; a name refused when -name gave it does
// not ask for -name.
func TestImportRefusesADesignNameTheGeneratedCodeUses(t *testing.T) {
	root := repo(t)
	before := tree(t, root)
	model := writeModel(t, gallery(t))
	for _, name := range []string{"put", "first", "e", "k", "loaded"} {
		_, err := (workbench.Importer{Root: root}).Import(context.Background(), model, name)
		if !errors.Is(err, scaffold.ErrRefused) || !strings.Contains(err.Error(), "local name of the generated") {
			t.Errorf("-name %s: %v, want refused as a local of the generated code", name, err)
		}
	}
	_, err := (workbench.Importer{Root: root}).Import(context.Background(), model, "abcdefghijabcdefghijabcdefghijk")
	if !errors.Is(err, scaffold.ErrRefused) || strings.Contains(err.Error(), "name the design with -name") {
		t.Errorf("a 31-character -name: %v, want refused without asking for -name", err)
	}
	if tree(t, root) != before {
		t.Errorf("a refused import changed the repository")
	}
}

// The check runs before anything of the design is written, so an import
// killed during it (the command's go vet) leaves no design registered
// that was not checked; the design is written once it passed.
func TestImportChecksBeforeItWritesAndRegistersLast(t *testing.T) {
	root := repo(t)
	before := tree(t, root)
	model := writeModel(t, gallery(t))
	checked := false
	im := workbench.Importer{Root: root, Check: func(_ context.Context, done []workbench.Imported) error {
		checked = true
		if tree(t, root) != before {
			t.Errorf("the repository changed before the check")
		}
		if len(done) != 1 || len(done[0].Plan.Change) == 0 {
			t.Errorf("the check got %d plans, want the design's plan with its registry lines", len(done))
		}
		return nil
	}}
	if _, err := im.Import(context.Background(), model, "gallery"); err != nil {
		t.Fatal(err)
	}
	all, _ := os.ReadFile(filepath.Join(root, "designs/all/all.go"))
	if !checked || !strings.Contains(string(all), "gallery.Design") {
		t.Errorf("checked %t; designs/all/all.go after the import:\n%s", checked, all)
	}
}
