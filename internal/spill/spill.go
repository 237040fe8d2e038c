package spill

import (
	"fmt"
	"iter"
	"reflect"
)

// Map is a map from K to V holding at most about 2·limit entries in
// memory. It is not safe for concurrent use. Where no temporary file can
// be made or written, it keeps everything in memory, as a map would.
type Map[K comparable, V any] struct {
	limit     int
	cur, prev map[K]entry[V] // two generations of recently used keys
	n         int            // live entries, memory and file
	disk      *table[K, V]   // nil until the first spill
	failed    bool           // the file failed: nothing more leaves memory
}

// entry is a key's state in memory: its value, or that it has none.
type entry[V any] struct {
	v      V
	live   bool // false: the key is absent (a miss, or deleted)
	onDisk bool // the file has a slot for the key
}

// New returns an empty map keeping about 2·limit entries in memory. It
// panics when K or V holds a pointer, a string, a slice or a map.
func New[K comparable, V any](limit int) *Map[K, V] {
	for _, t := range []reflect.Type{reflect.TypeFor[K](), reflect.TypeFor[V]()} {
		if !plain(t) {
			panic(fmt.Sprintf("spill: %v holds a reference; keys and values must be fixed-size values", t))
		}
	}
	limit = max(limit, 16)
	return &Map[K, V]{limit: limit, cur: map[K]entry[V]{}, prev: map[K]entry[V]{}}
}

// plain reports whether t's bytes are all of its value.
func plain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return plain(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plain(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// Len is the number of keys with a value.
func (m *Map[K, V]) Len() int { return m.n }

// Get returns k's value; ok is false when k has none.
func (m *Map[K, V]) Get(k K) (v V, ok bool) {
	e := m.load(k)
	return e.v, e.live
}

// Set gives k the value v.
func (m *Map[K, V]) Set(k K, v V) {
	e := m.load(k)
	if !e.live {
		m.n++
	}
	e.v, e.live = v, true
	m.cur[k] = e
}

// Update sets k's value to f of its value (ok false: none), with one
// lookup where Get and Set would make two.
func (m *Map[K, V]) Update(k K, f func(v V, ok bool) V) {
	e := m.load(k)
	if !e.live {
		m.n++
	}
	e.v, e.live = f(e.v, e.live), true
	m.cur[k] = e
}

// Delete removes k's value, if any.
func (m *Map[K, V]) Delete(k K) {
	e := m.load(k)
	if e.live {
		m.n--
	}
	var zero V
	e.v, e.live = zero, false
	m.cur[k] = e
}

// Peek returns k's value as Get does, but leaves the map as it was: it
// may be called while All runs.
func (m *Map[K, V]) Peek(k K) (v V, ok bool) {
	if e, ok := m.cur[k]; ok {
		return e.v, e.live
	}
	if e, ok := m.prev[k]; ok {
		return e.v, e.live
	}
	if m.disk != nil {
		v, ok, _ = m.disk.get(k)
	}
	return v, ok
}

// All yields each key and its value, in no order. The map must not change
// while it runs.
func (m *Map[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, gen := range []map[K]entry[V]{m.cur, m.prev} {
			for k, e := range gen {
				if e.live && !yield(k, e.v) {
					return
				}
			}
		}
		if m.disk == nil {
			return
		}
		for k, v := range m.disk.all() {
			_, inCur := m.cur[k]
			_, inPrev := m.prev[k]
			if !inCur && !inPrev && !yield(k, v) {
				return
			}
		}
	}
}

// load returns k's entry, bringing it into the current generation.
func (m *Map[K, V]) load(k K) entry[V] {
	if e, ok := m.cur[k]; ok {
		return e
	}
	e, ok := m.prev[k]
	if ok {
		delete(m.prev, k)
	} else if m.disk != nil {
		e.v, e.live, e.onDisk = m.disk.get(k)
	}
	if len(m.cur) >= m.limit && !m.failed {
		m.rotate()
	}
	m.cur[k] = e
	return e
}

// rotate writes the older generation to the file and starts a new one.
func (m *Map[K, V]) rotate() {
	if m.disk == nil {
		d, err := newTable[K, V](4 * m.limit)
		if err != nil {
			m.failed = true
			return
		}
		m.disk = d
	}
	for k, e := range m.prev {
		var err error
		switch {
		case e.live:
			err = m.disk.put(k, e.v, e.onDisk)
		case e.onDisk:
			err = m.disk.del(k)
		}
		if err != nil {
			m.failed = true
			for k, e := range m.cur {
				m.prev[k] = e
			}
			m.cur, m.prev = m.prev, map[K]entry[V]{}
			return
		}
	}
	m.prev, m.cur = m.cur, map[K]entry[V]{}
}
