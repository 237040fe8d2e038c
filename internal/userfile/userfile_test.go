package userfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/internal/userfile/userfiletest"
)

func TestWriteReplacesWholeAndKeepsThePermission(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %q, mode %v; want \"new\", 0600 kept", b, fi.Mode().Perm())
	}
	leftovers(t, filepath.Dir(path), "model.json")
}

func TestWriteThatFailsLeavesTheOldFileIntact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.json")
	old := []byte(`{"ModelName": "kept"}` + "\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	userfiletest.FullDisk(t, 8)
	err := Write(path, bytes.Repeat([]byte("new "), 100), 0o644)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Write on a full disk: %v, want an error naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, old) {
		t.Fatalf("old file is %q after a failed write, want %q", b, old)
	}
	leftovers(t, filepath.Dir(path), "model.json")
}

func TestAbortLeavesTheOldFileAndNothingElse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half of a new rep")) // the writer fails here
	f.Abort()
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("old file is %q after an aborted write, want \"old\"", b)
	}
	leftovers(t, dir, "summary.md")
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
}

func TestCreateFollowsALinkAndRefusesANamedPipe(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("link target holds %q, want \"new\"", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- Write(fifo, []byte("new"), 0o644) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), fifo) {
			t.Fatalf("Write to a named pipe: %v, want ErrNotRegular naming it", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Write to a named pipe did not return in 10 s")
	}
}

func TestReadRegularRefusesANamedPipeAtOnceAndAFileOverTheLimit(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "shard.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegular(fifo, 100); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("ReadRegular of a named pipe: %v, want ErrNotRegular naming it and what it is", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadRegular of a named pipe with no writer did not return in 10 s")
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, 101), 0o644)
	if _, err := ReadRegular(big, 100); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "100 B") || !strings.Contains(err.Error(), big) {
		t.Fatalf("ReadRegular over the limit: %v, want ErrTooLarge naming the file and the limit", err)
	}
	if b, err := ReadRegular(big, 101); err != nil || len(b) != 101 {
		t.Fatalf("ReadRegular at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadRegular(dir, 100); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("ReadRegular of a folder: %v, want ErrNotRegular", err)
	}
}

// leftovers fails when dir holds anything but want.
func leftovers(t *testing.T, dir string, want ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("%s holds %v, want %v", dir, got, want)
	}
}

// Read returns when its context ends, and after its deadline, even when
// the read under it never does.
func TestReadReturnsOnStopAndAfterItsDeadlineWhileTheReadHangs(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	readRegular = func(string, int64) ([]byte, error) { <-hang; return nil, nil }
	defer func() { readRegular = ReadRegular }()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := readWithin(ctx, "stuck.json", 100, time.Hour); done <- err }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stuck.json") {
			t.Fatalf("Read stopped: %v, want context.Canceled naming the file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not return in 10 s after its context ended")
	}

	go func() { _, err := readWithin(context.Background(), "stuck.json", 100, time.Millisecond); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrSlow) || !strings.Contains(err.Error(), "stuck.json") {
			t.Fatalf("Read past its deadline: %v, want ErrSlow naming the file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not return in 10 s past a deadline of 1 ms")
	}
}

// Read refuses what ReadRegular refuses, at once: a device that never
// ends is not read at all.
func TestReadRefusesADevice(t *testing.T) {
	if _, err := Read(context.Background(), "/dev/zero", 100); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Fatalf("Read(/dev/zero): %v, want ErrNotRegular saying a device", err)
	}
}
