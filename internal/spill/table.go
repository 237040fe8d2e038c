package spill

import (
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"os"
	"unsafe"
)

// Slot states in the file.
const (
	free = iota // never used: a probe stops here
	live
	gone // deleted: a probe goes on
)

// probeSlots is how many slots one read brings in while probing.
const probeSlots = 16

// growth is how many times larger each segment is than the last: a lookup
// of a key the file lacks reads once in every segment, so few is quick,
// and a segment's free slots take no disk until written.
const growth = 8

// table is an open-addressing hash table in a file, in segments that each
// grow on the last: a key is placed in the newest segment and never moves,
// so the table grows without rehashing what it holds (which would stall a
// call for the whole file). A lookup probes the segments newest first.
type table[K comparable, V any] struct {
	f        *os.File
	seed     maphash.Seed
	ks, vs   int // bytes of a key and a value
	slot     int // 1 + ks + vs
	segs     []segment
	end      int64 // slots in the file
	buf, one []byte
}

// segment is a run of slots, a power of two of them, from base.
type segment struct {
	base int64
	mask uint64
	used int // slots live or gone
}

func newTable[K comparable, V any](first int) (*table[K, V], error) {
	f, err := os.CreateTemp("", "ddbharness-spill-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	var k K
	var v V
	t := &table[K, V]{f: f, seed: maphash.MakeSeed(), ks: int(unsafe.Sizeof(k)), vs: int(unsafe.Sizeof(v))}
	t.slot = 1 + t.ks + t.vs
	t.buf, t.one = make([]byte, probeSlots*t.slot), make([]byte, t.slot)
	size := 1
	for size < first {
		size *= 2
	}
	return t, t.addSegment(size)
}

// addSegment appends a segment of size slots; the file grows sparse, so
// its free slots read as zeros without taking disk.
func (t *table[K, V]) addSegment(size int) error {
	if err := t.f.Truncate((t.end + int64(size)) * int64(t.slot)); err != nil {
		return err
	}
	t.segs = append(t.segs, segment{base: t.end, mask: uint64(size - 1)})
	t.end += int64(size)
	return nil
}

func bytesOf[T any](p *T) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p)) }

// find returns the slot holding k (live or gone) and its state and value;
// state is free when no segment holds k.
func (t *table[K, V]) find(k K) (at int64, state byte, v V) {
	h := maphash.Comparable(t.seed, k)
	for s := len(t.segs) - 1; s >= 0; s-- {
		if at, state, v := t.probe(t.segs[s], h, k); state != free {
			return at, state, v
		}
	}
	return 0, free, v
}

// probe looks for k in sg from its hash h, up to the first free slot.
func (t *table[K, V]) probe(sg segment, h uint64, k K) (at int64, state byte, v V) {
	for i := h & sg.mask; ; i = (i + probeSlots) & sg.mask &^ (probeSlots - 1) {
		b := t.read(sg, i)
		for j := 0; j*t.slot < len(b); j++ {
			sl := b[j*t.slot : (j+1)*t.slot]
			if sl[0] == free {
				return 0, free, v
			}
			var got K
			copy(bytesOf(&got), sl[1:1+t.ks])
			if got == k {
				copy(bytesOf(&v), sl[1+t.ks:])
				return sg.base + int64(i) + int64(j), sl[0], v
			}
		}
	}
}

// read returns the slots of sg from i to the end of i's run of probeSlots
// (or of sg, when smaller).
func (t *table[K, V]) read(sg segment, i uint64) []byte {
	n := min(probeSlots-int(i%probeSlots), int(sg.mask+1-i))
	b := t.buf[:n*t.slot]
	if _, err := t.f.ReadAt(b, (sg.base+int64(i))*int64(t.slot)); err != nil && err != io.EOF {
		panic(fmt.Sprintf("spill: reading the temporary file back: %v", err))
	}
	return b
}

// get returns k's value; onDisk is whether the file has a slot for k.
func (t *table[K, V]) get(k K) (v V, ok, onDisk bool) {
	_, state, found := t.find(k)
	if state == live {
		v = found
	}
	return v, state == live, state != free
}

// put writes k's value: in its slot, or in a free one of the newest
// segment, added when that is half full. onDisk is whether the file has a
// slot for k, which the map knows from loading it.
func (t *table[K, V]) put(k K, v V, onDisk bool) error {
	var at int64
	if onDisk {
		at, _, _ = t.find(k)
	} else {
		last := &t.segs[len(t.segs)-1]
		if 2*(last.used+1) > int(last.mask+1) {
			if err := t.addSegment(growth * int(last.mask+1)); err != nil {
				return err
			}
			last = &t.segs[len(t.segs)-1]
		}
		at = t.freeSlot(last, k)
		last.used++
	}
	sl := t.one
	sl[0] = live
	copy(sl[1:], bytesOf(&k))
	copy(sl[1+t.ks:], bytesOf(&v))
	_, err := t.f.WriteAt(sl, at*int64(t.slot))
	return err
}

// freeSlot is the first free slot of sg from k's hash; sg is at most half
// full, so there is one.
func (t *table[K, V]) freeSlot(sg *segment, k K) int64 {
	for i := maphash.Comparable(t.seed, k) & sg.mask; ; i = (i + probeSlots) & sg.mask &^ (probeSlots - 1) {
		b := t.read(*sg, i)
		for j := 0; j*t.slot < len(b); j++ {
			if b[j*t.slot] == free {
				return sg.base + int64(i) + int64(j)
			}
		}
	}
}

// del marks k's slot gone.
func (t *table[K, V]) del(k K) error {
	at, state, _ := t.find(k)
	if state != live {
		return nil
	}
	_, err := t.f.WriteAt([]byte{gone}, at*int64(t.slot))
	return err
}

// all yields each live key and value.
func (t *table[K, V]) all() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		const block = 4096
		b := make([]byte, block*t.slot)
		for at := int64(0); at < t.end; at += block {
			n := int(min(block, t.end-at))
			if _, err := t.f.ReadAt(b[:n*t.slot], at*int64(t.slot)); err != nil && err != io.EOF {
				panic(fmt.Sprintf("spill: reading the temporary file back: %v", err))
			}
			for j := range n {
				sl := b[j*t.slot : (j+1)*t.slot]
				if sl[0] != live {
					continue
				}
				var k K
				var v V
				copy(bytesOf(&k), sl[1:1+t.ks])
				copy(bytesOf(&v), sl[1+t.ks:])
				if !yield(k, v) {
					return
				}
			}
		}
	}
}
