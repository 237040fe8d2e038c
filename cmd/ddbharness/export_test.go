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
	fullDisk(t, 64)
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

// fullDisk makes every file this process writes end after n bytes, as on
// a full disk (EFBIG where a full disk says ENOSPC; Go ignores the
// SIGXFSZ that comes with it), until the test ends. It holds for every
// goroutine: tests using it must not run in parallel.
func fullDisk(t *testing.T, n uint64) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip("no file size limit here:", err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: old.Max}); err != nil {
		t.Skip("no file size limit here:", err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old) })
}
