package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A suite's folder that ginkgo built a binary in and removed it from gets
// its time back; one whose listing changed keeps the new time.
func TestKeepTimesRestoresOnlyUnchangedListings(t *testing.T) {
	root := t.TempDir()
	built, grown := filepath.Join(root, "built"), filepath.Join(root, "grown")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, d := range []string{built, grown} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "a_test.go"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	restore := keepTimes([]testPackage{{Dir: built}, {Dir: grown}, {Dir: filepath.Join(root, "gone")}})
	bin := filepath.Join(built, "built.test")
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(grown, "left.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	restore()
	for d, want := range map[string]bool{built: true, grown: false} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.ModTime().Equal(old); got != want {
			t.Errorf("%s: time restored %v, want %v (mtime %v)", filepath.Base(d), got, want, fi.ModTime())
		}
	}
}
