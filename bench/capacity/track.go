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
	if coll > it.coll {
		c.grows++
	}
	l.followIndexes(s, w)
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

// followIndexes records what a write added to or took from each GSI
// partition key value it touched: a GSI key has no size limit, but one
// that gathers entries with traffic (a warehouse's shipments) makes every
// read of it longer.
func (l *Ledger) followIndexes(s ddbitem.Schema, w Write) {
	for _, ix := range s.Indexes {
		if ix.Local {
			continue
		}
		old, new := s.Entry(ix, w.Before), s.Entry(ix, w.After)
		oldKey, newKey := ddbitem.KeyText(old[ix.PK]), ddbitem.KeyText(new[ix.PK])
		if old != nil {
			k := l.indexKey(ix.Name, oldKey)
			k.known -= ddbitem.Size(old)
			k.added -= ddbitem.Size(old)
		}
		if new != nil {
			k := l.indexKey(ix.Name, newKey)
			k.known += ddbitem.Size(new)
			k.added += ddbitem.Size(new)
			if old == nil || oldKey != newKey || ddbitem.Size(new) > ddbitem.Size(old) {
				k.grows++
			}
		}
	}
}

func (l *Ledger) indexKey(index, pk string) *collectionTrack {
	k := l.indexKeys[slot{index, pk}]
	if k == nil {
		k = &collectionTrack{pk: pk}
		l.indexKeys[slot{index, pk}] = k
	}
	return k
}
