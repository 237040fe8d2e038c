package ledger

import (
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/pricing"
)

// follow records the sizes one successful write left: the item's, and its
// item collection's (the items of one table partition key value plus, on a
// table with LSIs, their LSI entries).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections
func (l *Ledger) follow(s ddbitem.Schema, w pricing.Write) {
	keyed := w.After
	if keyed == nil {
		keyed = w.Before
	}
	if keyed == nil {
		return
	}
	id, _ := s.KeyID(keyed)
	size, coll := int32(ddbitem.Size(w.After)), int32(s.CollectionBytes(w.After))
	pk := ddbitem.KeyText(keyed[s.PK])
	it, ok := l.item(id, len(pk))
	if !ok {
		// An item the write creates starts at its first size: creating
		// items grows collections, not items.
		first := int32(ddbitem.Size(w.Before))
		if w.Before == nil {
			first = size
		}
		it = ItemTrack{pkLen: int32(len(pk)), First: first, coll: int32(s.CollectionBytes(w.Before))}
		l.addCollection(pk, int(it.coll), 0, false)
	}
	l.addCollection(pk, int(coll-it.coll), int(coll-it.coll), coll > it.coll)
	l.followIndexes(s, w)
	prev := it.First
	if it.writes > 0 {
		prev = it.Last
	}
	if size > prev {
		it.Grows++
	}
	it.writes++
	it.Last, it.coll = size, coll
	l.setItem(id, it)
}

// addCollection adds known and added bytes to the track of partition key
// value pk, and a write that enlarged it if grew.
func (l *Ledger) addCollection(pk string, known, added int, grew bool) {
	id := l.names.ID(pk)
	c, _ := l.collections.Get(id)
	c.Known, c.Added = c.Known+known, c.Added+added
	if grew {
		c.Grows++
	}
	l.collections.Set(id, c)
}

// followIndexes records what a write added to or took from each GSI
// partition key value it touched: a GSI key has no size limit, but one
// that gathers entries with traffic (a warehouse's shipments) makes every
// read of it longer.
func (l *Ledger) followIndexes(s ddbitem.Schema, w pricing.Write) {
	for _, ix := range s.Indexes {
		if ix.Local {
			continue
		}
		old, new := s.Entry(ix, w.Before), s.Entry(ix, w.After)
		oldKey, newKey := ix.PartitionText(old), ix.PartitionText(new)
		if old != nil {
			at := l.slotID(Slot{ix.Name, oldKey})
			k, _ := l.indexKeys.Get(at)
			k.Known -= ddbitem.Size(old)
			k.Added -= ddbitem.Size(old)
			l.indexKeys.Set(at, k)
		}
		if new != nil {
			at := l.slotID(Slot{ix.Name, newKey})
			k, _ := l.indexKeys.Get(at)
			k.Known += ddbitem.Size(new)
			k.Added += ddbitem.Size(new)
			if old == nil || oldKey != newKey || ddbitem.Size(new) > ddbitem.Size(old) {
				k.Grows++
			}
			l.indexKeys.Set(at, k)
		}
	}
}
