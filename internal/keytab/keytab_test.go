package keytab

import (
	"fmt"
	"sync"
	"testing"

	"github.com/ddbharness/ddbharness/internal/heaptest"
)

func TestIDsAreStableAndTextsKept(t *testing.T) {
	tab := New()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5000 {
				tab.ID(fmt.Sprintf("K%d", (i*7+w)%3000))
			}
		}()
	}
	wg.Wait()
	if tab.Len() != 3000 {
		t.Fatalf("%d texts, want 3000", tab.Len())
	}
	for i := range 3000 {
		text := fmt.Sprintf("K%d", i)
		id, ok := tab.Lookup(text)
		if !ok || tab.Text(id) != text || tab.ID(text) != id {
			t.Fatalf("%q: id %d (%v), text %q", text, id, ok, tab.Text(id))
		}
	}
	long := string(make([]byte, chunkBytes))
	if id := tab.ID(long); tab.Text(id) != long {
		t.Fatal("long text changed")
	}
	if id := tab.ID(""); tab.Text(id) != "" || tab.ID("") != id {
		t.Fatal("empty text")
	}
	if _, ok := tab.Lookup("missing"); ok {
		t.Fatal("missing text found")
	}
}

// Texts that went to the file, or stayed in memory where no file could be
// made, read back as they were given.
func TestTextsComeBackFromTheFile(t *testing.T) {
	check := func(t *testing.T, tab *Numbering) {
		ids := map[uint32]string{}
		for i := range 20_000 {
			text := fmt.Sprintf("INVOICE#%027d#%d", i*7919, i)
			id := tab.ID(text)
			if was, ok := ids[id]; ok {
				t.Fatalf("%q and %q share id %d", was, text, id)
			}
			ids[id] = text
		}
		for id, text := range ids {
			if got := tab.Text(id); got != text {
				t.Fatalf("Text(%d) = %q, want %q", id, got, text)
			}
			if again, ok := tab.Lookup(text); !ok || again != id {
				t.Fatalf("Lookup(%q) = %d, %v; want %d", text, again, ok, id)
			}
		}
	}
	t.Run("file", func(t *testing.T) {
		tab := New()
		check(t, tab)
		if tab.file == nil || tab.wrote == 0 {
			t.Fatal("no text went to the file")
		}
	})
	t.Run("memory", func(t *testing.T) {
		t.Setenv("TMPDIR", t.TempDir()+"/missing")
		tab := New()
		check(t, tab)
		if tab.file != nil || len(tab.old) == 0 {
			t.Fatal("the texts did not stay in memory")
		}
	})
}

// A run that names a new key at every call keeps its heap.
func TestHeapDoesNotGrowWithTexts(t *testing.T) {
	heaptest.Flat(t, 20_000, 1<<20, func(calls int) uint64 {
		return heaptest.HeapAfter(func() any {
			tab := New()
			for i := range calls {
				tab.ID(fmt.Sprintf("LINEITEM#2Z8Ck9pXqL3mN7rT1vW5yB0dF%08d#1", i))
			}
			return tab
		})
	})
}
