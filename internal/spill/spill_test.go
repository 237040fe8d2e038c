package spill

import (
	"math/rand/v2"
	"testing"

	"github.com/ddbharness/ddbharness/internal/heaptest"
)

type key struct {
	a   uint32
	tag byte // leaves padding after it: equal keys must match whatever the padding holds
}

type val struct {
	n    int64
	f    float64
	seen bool
}

// The map answers as a Go map does through sets, deletes and reads of many
// more keys than it keeps in memory, so that most go through the file.
func TestMatchesAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m, want := New[key, val](64), map[key]val{}
	for i := range 200_000 {
		k := key{a: uint32(r.IntN(20_000)), tag: byte(r.IntN(3))}
		switch r.IntN(10) {
		case 0:
			m.Delete(k)
			delete(want, k)
		case 1, 2, 3:
			v := val{n: int64(i), f: float64(i) / 3, seen: i%2 == 0}
			m.Set(k, v)
			want[k] = v
		default:
			got, ok := m.Get(k)
			w, wok := want[k]
			if got != w || ok != wok {
				t.Fatalf("call %d: Get(%v) = %v, %v; want %v, %v", i, k, got, ok, w, wok)
			}
		}
		if m.Len() != len(want) {
			t.Fatalf("call %d: Len %d, want %d", i, m.Len(), len(want))
		}
	}
	if m.disk == nil || len(m.disk.segs) < 2 {
		t.Fatalf("the test never reached a second segment of the file")
	}
	seen := map[key]bool{}
	for k, v := range m.All() {
		if seen[k] {
			t.Fatalf("All gave %v twice", k)
		}
		seen[k] = true
		if want[k] != v {
			t.Fatalf("All gave %v = %v, want %v", k, v, want[k])
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("All gave %d keys, want %d", len(seen), len(want))
	}
}

// A map taking a new key at every call keeps its heap however many keys it
// holds.
func TestHeapDoesNotGrowWithKeys(t *testing.T) {
	heaptest.Flat(t, 20_000, 1<<20, func(calls int) uint64 {
		return heaptest.HeapAfter(func() any {
			m := New[[2]uint64, val](4096)
			for i := range calls {
				m.Set([2]uint64{uint64(i), 7}, val{n: int64(i)})
			}
			return m
		})
	})
}

func TestRefusesReferences(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("New[string, int] did not panic")
		}
	}()
	New[string, int](16)
}

// Where no temporary file can be made, the map keeps everything in memory
// and still answers.
func TestWithoutAFileKeepsAll(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()+"/missing")
	m := New[uint32, uint32](16)
	for i := range uint32(1000) {
		m.Set(i, i*2)
	}
	if m.disk != nil || !m.failed {
		t.Fatalf("a file was made in a missing folder")
	}
	for i := range uint32(1000) {
		if v, ok := m.Get(i); !ok || v != i*2 {
			t.Fatalf("Get(%d) = %d, %v", i, v, ok)
		}
	}
}

func TestUpdate(t *testing.T) {
	m := New[uint32, int](16)
	for i := range 1000 {
		m.Update(uint32(i%300), func(v int, ok bool) int {
			if ok != (i >= 300) {
				t.Fatalf("call %d: ok %v", i, ok)
			}
			return v + 1
		})
	}
	if m.Len() != 300 {
		t.Fatalf("Len %d, want 300", m.Len())
	}
	for k := range uint32(300) {
		want := 3
		if k < 100 {
			want = 4
		}
		if v, _ := m.Get(k); v != want {
			t.Fatalf("key %d: %d, want %d", k, v, want)
		}
	}
}
