package keytab

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/ddbharness/ddbharness/internal/spill"
)

const (
	// chunkBytes is how many bytes of texts a numbering keeps in memory
	// before writing them to its file.
	chunkBytes = 64 << 10
	// MaxText is the longest text a numbering holds (a DynamoDB key value is
	// at most 2,048 bytes).
	MaxText = 1<<20 - 1
	// indexRows is how many texts' index entries stay in memory, about.
	indexRows = 16384
)

// Numbering maps texts to ids. Its texts may take 4 GiB in all. It is safe for
// concurrent use. Two texts sharing a 128-bit hash would share an id: the
// odds, for n texts, are about n²/2¹²⁹, none in practice.
type Numbering struct {
	mu     sync.Mutex
	seeds  [2]maphash.Seed
	ids    *spill.Map[[2]uint64, uint32] // by the text's hash
	file   *os.File                      // the texts before written; made at the first flush
	nofile bool                          // no file could be made
	wrote  int64                         // the bytes in file
	old    []chunk                       // the chunks from written to base, when file failed
	base   int64                         // the store's offset of tail
	tail   []byte                        // the latest texts, each behind its length (uvarint)
	n      int
}

// chunk is texts kept in memory from offset base of the store.
type chunk struct {
	base int64
	b    []byte
}

// New returns an empty numbering.
func New() *Numbering {
	return &Numbering{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, ids: spill.New[[2]uint64, uint32](indexRows)}
}

// open makes the file texts go to, unlinked at once. Call with t.mu held.
func (t *Numbering) open() {
	f, err := os.CreateTemp("", "ddbharness-keys-*")
	if err == nil && os.Remove(f.Name()) == nil {
		t.file = f
		return
	}
	if f != nil {
		f.Close()
	}
	t.nofile = true
}

func (t *Numbering) hash(text string) [2]uint64 {
	return [2]uint64{maphash.String(t.seeds[0], text), maphash.String(t.seeds[1], text)}
}

// ID returns text's id, numbering it if new.
func (t *Numbering) ID(text string) uint32 {
	if len(text) > MaxText {
		panic(fmt.Sprintf("keytab: a text of %d bytes, at most %d", len(text), MaxText))
	}
	h := t.hash(text)
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids.Get(h); ok {
		return id
	}
	at := t.base + int64(len(t.tail))
	if at+binary.MaxVarintLen32+int64(len(text)) > math.MaxUint32 {
		panic("keytab: more than 4 GiB of key texts in one run")
	}
	t.tail = binary.AppendUvarint(t.tail, uint64(len(text)))
	t.tail = append(t.tail, text...)
	if len(t.tail) >= chunkBytes {
		t.flush()
	}
	t.ids.Set(h, uint32(at))
	t.n++
	return uint32(at)
}

// flush moves the tail to the file or, when there is none or it failed
// once, to old. Call with t.mu held.
func (t *Numbering) flush() {
	if t.file == nil && !t.nofile {
		t.open()
	}
	if t.file != nil && t.wrote == t.base {
		if _, err := t.file.WriteAt(t.tail, t.base); err == nil {
			t.base += int64(len(t.tail))
			t.wrote = t.base
			t.tail = t.tail[:0]
			return
		}
	}
	t.old = append(t.old, chunk{t.base, t.tail})
	t.base += int64(len(t.tail))
	t.tail = make([]byte, 0, chunkBytes)
}

// Lookup returns text's id without numbering it; ok is false for a text
// the numbering does not hold.
func (t *Numbering) Lookup(text string) (id uint32, ok bool) {
	h := t.hash(text)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ids.Get(h)
}

// Text returns the text of id, which ID returned.
func (t *Numbering) Text(id uint32) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	at := int64(id)
	switch {
	case at >= t.base:
		return record(t.tail[at-t.base:])
	case at >= t.wrote:
		i, _ := slices.BinarySearchFunc(t.old, at, func(c chunk, at int64) int { return cmp.Compare(c.base, at+1) })
		c := t.old[i-1]
		return record(c.b[at-c.base:])
	}
	return t.read(at)
}

// record is the text at the start of b, behind its length.
func record(b []byte) string {
	n, k := binary.Uvarint(b)
	return string(b[k : k+int(n)])
}

// read is the text at offset at, before the tail. Call with t.mu held.
func (t *Numbering) read(at int64) string {
	var head [binary.MaxVarintLen32]byte
	k, _ := t.file.ReadAt(head[:], at)
	n, w := binary.Uvarint(head[:k])
	if w <= 0 {
		panic(fmt.Sprintf("keytab: reading the key texts' temporary file back at %d", at))
	}
	b := make([]byte, n)
	if _, err := t.file.ReadAt(b, at+int64(w)); err != nil {
		panic(fmt.Sprintf("keytab: reading the key texts' temporary file back: %v", err))
	}
	return string(b)
}

// Len is the number of texts.
func (t *Numbering) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
