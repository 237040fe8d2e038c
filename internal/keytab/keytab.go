// Package keytab numbers key texts: a run names the same partition key
// values in several places (the capacity ledger's rows, its collections,
// the limits emulator's estimates), and a table of texts lets each keep a
// 32-bit id instead of its own copy of the text.
//
// A text costs its bytes once, in chunks that are never moved, and about
// 40 bytes of index (a map entry and a string header).
package keytab

import (
	"sync"
	"unsafe"
)

// chunkBytes is the size of the chunks texts are copied into; a longer
// text gets a chunk of its own.
const chunkBytes = 32 << 10

// Table maps texts to ids, from 0 in order of first appearance. The zero
// value is ready; it is safe for concurrent use.
type Table struct {
	mu    sync.RWMutex
	ids   map[string]uint32
	texts []string
	chunk []byte
}

// New returns an empty table.
func New() *Table { return &Table{} }

// ID returns text's id, numbering it if new.
func (t *Table) ID(text string) uint32 {
	t.mu.RLock()
	id, ok := t.ids[text]
	t.mu.RUnlock()
	if ok {
		return id
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[text]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint32{}
	}
	s := t.store(text)
	id = uint32(len(t.texts))
	t.texts = append(t.texts, s)
	t.ids[s] = id
	return id
}

// Lookup returns text's id without numbering it; ok is false for a text
// the table does not hold.
func (t *Table) Lookup(text string) (id uint32, ok bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	id, ok = t.ids[text]
	return id, ok
}

// Text returns the text of id, which ID returned.
func (t *Table) Text(id uint32) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.texts[id]
}

// Len is the number of texts.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.texts)
}

// store copies text into a chunk and returns the copy. Call with t.mu held.
func (t *Table) store(text string) string {
	if len(text) == 0 {
		return ""
	}
	if len(text) > chunkBytes/4 {
		return string([]byte(text))
	}
	if cap(t.chunk)-len(t.chunk) < len(text) {
		t.chunk = make([]byte, 0, chunkBytes)
	}
	at := len(t.chunk)
	t.chunk = append(t.chunk, text...)
	b := t.chunk[at:len(t.chunk):len(t.chunk)]
	return unsafe.String(&b[0], len(b))
}
