package keytab

import (
	"fmt"
	"sync"
	"testing"
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
