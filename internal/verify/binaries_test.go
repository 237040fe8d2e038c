package verify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

func TestByNameGivesSharedNamesLayersOfTheirOwn(t *testing.T) {
	suites := []testPackage{{Name: "shop"}, {Name: "bench"}, {Name: "bench"}, {Name: "agencies"}, {Name: "bench"}}
	got := byName(suites)
	want := [][]int{{0, 1, 3}, {2}, {4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("byName = %v, want %v", got, want)
	}
}

// The race detector's binaries and the plain ones are cached apart: a
// folder shared by both would be relinked at each change of kind, and a
// link made of one kind overwritten by the other.
func TestSuitesOfEachKindHaveTheirOwnFolder(t *testing.T) {
	plain, race := suitesDir("/c", false), suitesDir("/c", true)
	if plain == race || filepath.Dir(plain) != "/c" || filepath.Dir(race) != "/c" {
		t.Errorf("suitesDir = %q plain, %q with the race detector: want two folders of the cache", plain, race)
	}
}

func TestBuildsItselfOnAnyGoBuildFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--label-filter=AP-03", "-v", "--focus", "tags"}, false},
		{[]string{"--tags=integration"}, true},
		{[]string{"-tags", "x"}, true},
		{[]string{"--cover"}, true},
		{[]string{"--coverprofile=c.out"}, true},
		{[]string{"-gcflags=all=-N"}, true},
		{[]string{"--", "--tags=x"}, false},
	} {
		if got := buildsItself(c.args); got != c.want {
			t.Errorf("buildsItself(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// A suite's binary is built once into the cache and linked into the
// suite's folder; a second run links nothing new, and a rebuild after a
// change leaves the binary a running suite was given as it was.
func TestLinkSuitesReusesTheCachedBinary(t *testing.T) {
	mod := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/tiny\n\ngo 1.22\n")
	write("tiny_test.go", "package tiny\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {}\n")
	t.Chdir(mod)
	r, err := startReaper(false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	ctx, cache := context.Background(), t.TempDir()
	suite := []testPackage{{ImportPath: "example.com/tiny", Name: "tiny", Dir: mod}}
	var log bytes.Buffer

	bins, remove := linkSuites(ctx, r, cache, false, suite, nil, &log)
	if want := []string{filepath.Join(mod, "tiny.test")}; !reflect.DeepEqual(bins, want) {
		t.Fatalf("bins = %q, want %q (log: %s)", bins, want, log.String())
	}
	first := inode(t, bins[0])
	cached := filepath.Join(cache, "suites", "0", "tiny.test")
	if inode(t, cached) != first {
		t.Fatal("the suite's binary is not the cached one")
	}
	remove()
	if _, err := os.Stat(bins[0]); !os.IsNotExist(err) {
		t.Fatalf("remove left %s: %v", bins[0], err)
	}

	bins, remove = linkSuites(ctx, r, cache, false, suite, nil, &log)
	if inode(t, bins[0]) != first {
		t.Fatal("an unchanged suite was linked again")
	}

	remove()

	// A suite still running from the cache's earlier binary (a verify in
	// another checkout) keeps its bytes when a change rebuilds it.
	running := filepath.Join(t.TempDir(), "running.test")
	if err := os.Link(cached, running); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(running)
	if err != nil {
		t.Fatal(err)
	}
	write("tiny_test.go", "package tiny\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {}\n")
	bins, remove = linkSuites(ctx, r, cache, false, suite, nil, &log)
	defer remove()
	if bins == nil || inode(t, bins[0]) == first || inode(t, cached) == first {
		t.Fatalf("a changed suite was not built again (log: %s)", log.String())
	}
	after, err := os.ReadFile(running)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) || inode(t, running) != first {
		t.Fatal("the rebuild wrote into the binary a running suite was given")
	}
}

// inode is the file's inode number.
func inode(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}
