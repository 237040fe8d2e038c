// Package userfiletest holds what the tests of a file writer need: a disk
// that fills up.
package userfiletest

import (
	"syscall"
	"testing"
)

// FullDisk makes every file this process writes end after n bytes, as on
// a full disk (EFBIG where a full disk says ENOSPC; Go ignores the
// SIGXFSZ that comes with it), until the test ends. It holds for every
// goroutine: tests using it must not run in parallel.
func FullDisk(t testing.TB, n uint64) {
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
