// Package keytab numbers key texts: a run names the same partition key
// values in several places (the capacity ledger's rows, its collections,
// the limits emulator's estimates), and a table of texts lets each keep a
// 32-bit id instead of its own copy of the text.
//
// A text costs its bytes once, in chunks that are never moved, and about
// 16 bytes of index: an 8-byte reference, and a 4-byte slot of an open
// hash table kept at most three quarters full.
package keytab

import (
	"fmt"
	"hash/maphash"
	"sync"
	"unsafe"
)

const (
	// chunkBytes is the size of the chunks texts are copied into; a text
	// longer than a quarter of it gets a chunk of its own.
	chunkBytes = 64 << 10
	// MaxText is the longest text a table holds (a DynamoDB key value is
	// at most 2,048 bytes).
	MaxText = 1<<20 - 1
)

// Table maps texts to ids, from 0 in order of first appearance. The zero
// value is ready; it is safe for concurrent use.
type Table struct {
	mu     sync.RWMutex
	seed   maphash.Seed
	slots  []uint32 // id+1 of the text hashed there, 0 when free; open addressing
	refs   []ref    // by id
	chunks [][]byte
}

// ref places a text: chunk index (24 bits), offset (20 bits), length (20
// bits).
type ref uint64

func makeRef(chunk, off, n int) ref { return ref(uint64(chunk)<<40 | uint64(off)<<20 | uint64(n)) }

// New returns an empty table.
func New() *Table { return &Table{} }

// ID returns text's id, numbering it if new.
func (t *Table) ID(text string) uint32 {
	t.mu.RLock()
	id, ok := t.find(text)
	t.mu.RUnlock()
	if ok {
		return id
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.find(text); ok {
		return id
	}
	if len(text) > MaxText {
		panic(fmt.Sprintf("keytab: a text of %d bytes, at most %d", len(text), MaxText))
	}
	if (len(t.refs)+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	id = uint32(len(t.refs))
	t.refs = append(t.refs, t.store(text))
	t.place(id, text)
	return id
}

// Lookup returns text's id without numbering it; ok is false for a text
// the table does not hold.
func (t *Table) Lookup(text string) (id uint32, ok bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.find(text)
}

// Text returns the text of id, which ID returned.
func (t *Table) Text(id uint32) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.text(t.refs[id])
}

// Len is the number of texts.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.refs)
}

// text is the text r places. Call with t.mu held.
func (t *Table) text(r ref) string {
	n := int(r & (1<<20 - 1))
	if n == 0 {
		return ""
	}
	c, off := t.chunks[r>>40], int(r>>20&(1<<20-1))
	return unsafe.String(&c[off], n)
}

// find is text's id. Call with t.mu held.
func (t *Table) find(text string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(t.seed, text) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if t.text(t.refs[s-1]) == text {
			return s - 1, true
		}
	}
}

// place puts id, of text, in the first free slot from text's hash. Call
// with t.mu held.
func (t *Table) place(id uint32, text string) {
	mask := uint64(len(t.slots) - 1)
	i := maphash.String(t.seed, text) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = id + 1
}

// grow doubles the slots and places every text again. Call with t.mu held.
func (t *Table) grow() {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
	}
	t.slots = make([]uint32, max(64, 2*len(t.slots)))
	for id, r := range t.refs {
		t.place(uint32(id), t.text(r))
	}
}

// store copies text into a chunk and returns where. Call with t.mu held.
func (t *Table) store(text string) ref {
	if len(text) == 0 {
		return 0
	}
	if len(text) > chunkBytes/4 {
		t.chunks = append(t.chunks, []byte(text))
		return makeRef(len(t.chunks)-1, 0, len(text))
	}
	last := len(t.chunks) - 1
	if last < 0 || cap(t.chunks[last])-len(t.chunks[last]) < len(text) || cap(t.chunks[last]) != chunkBytes {
		t.chunks = append(t.chunks, make([]byte, 0, chunkBytes))
		last++
	}
	off := len(t.chunks[last])
	t.chunks[last] = append(t.chunks[last], text...)
	return makeRef(last, off, len(text))
}
