package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/internal/userfile/userfiletest"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// export-model -out over a model on a disk that fills up keeps the model
// that was there, byte for byte, and says so with exit 2.
func TestExportModelKeepsTheOldFileWhenTheWriteFails(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "shop.json")
	old := []byte(`{"ModelName": "the user's own"}` + "\n")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	userfiletest.FullDisk(t, 64)
	err := exportModel(context.Background(), newFlags("export-model", "", ""), []string{"-out", out, "shop"})
	if code, msg := exitCode(context.Background(), err); code != exitBadInput || !strings.Contains(msg, out) {
		t.Fatalf("export-model on a full disk: exit %d, %q; want exit %d naming %s", code, msg, exitBadInput, out)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, old) {
		t.Fatalf("%s holds %.40q... after a failed export, want the old model", out, b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("%s holds %d files after a failed export, want the old model alone", dir, len(es))
	}
}

// export-model -out to a named pipe is refused at once, not held until a
// reader comes.
func TestExportModelRefusesANamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "model.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		done <- exportModel(context.Background(), newFlags("export-model", "", ""), []string{"-out", fifo, "shop"})
	}()
	select {
	case err := <-done:
		if code, msg := exitCode(context.Background(), err); code != exitBadInput || !strings.Contains(msg, fifo) || !strings.Contains(msg, "not a regular file") {
			t.Fatalf("export-model to a named pipe: exit %d, %q; want exit %d naming it", code, msg, exitBadInput)
		}
	case <-time.After(time.Minute):
		t.Fatal("export-model to a named pipe did not return in a minute")
	}
}

// export-model -format mcp writes a dynamodb_data_model.json that
// import-model reads back, the design's patterns among its access
// patterns; another format is bad input.
func TestExportModelWritesTheMCPFormat(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dynamodb_data_model.json")
	if err := exportModel(context.Background(), newFlags("export-model", "", ""), []string{"-format", "mcp", "-out", out, "shop"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Parse(data)
	if err != nil {
		t.Fatalf("import-model cannot read what export-model -format mcp wrote: %v", err)
	}
	if len(m.DataModel) != 1 || !strings.Contains(string(data), `"pattern": "AP-01"`) {
		t.Errorf("the MCP export has %d tables and no access pattern AP-01:\n%.400s", len(m.DataModel), data)
	}
	err = exportModel(context.Background(), newFlags("export-model", "", ""), []string{"-format", "yaml", "shop"})
	if code, msg := exitCode(context.Background(), err); code != exitBadInput || !strings.Contains(msg, "want workbench or mcp") {
		t.Errorf("export-model -format yaml: exit %d, %q; want exit %d naming the formats", code, msg, exitBadInput)
	}
}
