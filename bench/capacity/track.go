package capacity

import (
	"github.com/ddbharness/ddbharness/ddbitem"
)

// follow records the sizes one successful write left: the item's, and its
// item collection's (the items of one table partition key value plus, on a
// table with LSIs, their LSI entries).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections
func (l *Ledger) follow(s ddbitem.Schema, w Write) {
	keyed := w.After
	if keyed == nil {
		keyed = w.Before
	}
	if keyed == nil {
		return
	}
	id, _ := s.KeyID(keyed)
	size, coll := ddbitem.Size(w.After), s.CollectionBytes(w.After)
	it := l.items[id]
	if it == nil {
		// An item the write creates starts at its first size: creating
		// items grows collections, not items.
		first := ddbitem.Size(w.Before)
		if w.Before == nil {
			first = size
		}
		it = &itemTrack{pk: ddbitem.KeyText(keyed[s.PK]), first: first, coll: s.CollectionBytes(w.Before)}
		if s.SK != "" {
			it.sk = ddbitem.KeyText(keyed[s.SK])
		}
		l.items[id] = it
		l.collection(it.pk).known += it.coll
	}
	c := l.collection(it.pk)
	c.known += coll - it.coll
	c.added += coll - it.coll
	prev := it.first
	if it.writes > 0 {
		prev = it.last
	}
	if size > prev {
		it.grows++
	}
	it.writes++
	it.last, it.coll = size, coll
}

// collection returns the track of partition key value pk.
func (l *Ledger) collection(pk string) *collectionTrack {
	c := l.collections[pk]
	if c == nil {
		c = &collectionTrack{pk: pk}
		l.collections[pk] = c
	}
	return c
}
