package verify

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCachedLinesRunsOncePerKey: a key's complete output is kept and
// given back without running again; another key, an incomplete run, or a
// damaged or oversized file runs again.
func TestCachedLinesRunsOncePerKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lint", "x.txt")
	runs := 0
	lint := func(text string, complete bool) func(io.Writer) bool {
		return func(w io.Writer) bool {
			runs++
			io.WriteString(w, text)
			return complete
		}
	}
	got := func(key string, run func(io.Writer) bool) string {
		var b bytes.Buffer
		cachedLines(&b, path, key, run)
		return b.String()
	}
	steps := []struct {
		what, key string
		run       func(io.Writer) bool
		want      string
		runs      int
	}{
		{"a first run lints", "k1", lint("lint: warning: a\n", true), "lint: warning: a\n", 1},
		{"the same key is the kept lines", "k1", lint("other\n", true), "lint: warning: a\n", 1},
		{"another key lints again", "k2", lint("lint: warning: b\n", true), "lint: warning: b\n", 2},
		{"an incomplete run is not kept", "k3", lint("half\n", false), "half\n", 3},
		{"so the next lints again", "k3", lint("whole\n", true), "whole\n", 4},
		{"no warnings is kept too", "k4", lint("", true), "", 5},
		{"and given back", "k4", lint("other\n", true), "", 5},
	}
	for _, s := range steps {
		if out := got(s.key, s.run); out != s.want || runs != s.runs {
			t.Fatalf("%s: got %q after %d runs, want %q after %d", s.what, out, runs, s.want, s.runs)
		}
	}
	if err := os.WriteFile(path, []byte("k4"), 0o644); err != nil { // no key line
		t.Fatal(err)
	}
	if out := got("k4", lint("again\n", true)); out != "again\n" || runs != 6 {
		t.Fatalf("a damaged file: got %q after %d runs", out, runs)
	}
	if err := os.WriteFile(path, []byte("k5\n"+strings.Repeat("x", maxLintCache)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := got("k5", lint("fresh\n", true)); out != "fresh\n" || runs != 7 {
		t.Fatalf("a file over the bound: got %q after %d runs", out, runs)
	}
}
