package emulate

import (
	"slices"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// A request is priced before it is decided, from its own parameters and
// the items as the caller's shadow holds them (lookupIn): a write's new
// image is its put item or its update expression applied to the item it
// finds (an update that finds none creates it from its key, an upsert), so
// it meets every table and GSI partition it would write, as DynamoDB's
// GSI back-pressure refuses the base write when an index partition it
// would write has nothing left.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html
// (a GSI short of write capacity throttles the write to the base table,
// the reason naming the index). The units priced are what the call holds
// while in flight (reserve) and, when it is denied, what the capacity
// model puts back for it (Denied).

// writeTouches is where one write would consume: its table partition and
// each index partition whose entry it would change, each with the units
// pricing.Account charges there (tx: inside a transaction). A write whose
// condition fails on the item as known changes no index and costs the
// table alone, as DynamoDB charges it (whether DynamoDB would also ask its
// GSIs before it evaluates the condition AWS does not say: inferred). An
// update whose expression the emulator cannot apply, and any write without
// the caller's items, keeps the older rule: the table's partition and the
// GSI partitions of the put item and of the item known, its units unknown
// (0: the emulator's estimate stands in).
func (e *Emulator) writeTouches(ts []touch, w ddbitem.Write, tx bool) []touch {
	if w.Key == nil {
		return ts // an action that names no item (a malformed request DynamoDB refuses)
	}
	var old ddbitem.Item
	f := e.lookup.Load()
	if f != nil {
		old = (*f)(w.Table, e.item.Key(w.Key))
	}
	pw, ok := predictWrite(w, old)
	if !ok {
		return e.writes(ts, w.Table, w.Key, w.Put, old)
	}
	o := pricing.Observation{Op: designs.PutItem, Transactional: tx, Writes: []pricing.Write{pw}}
	first := len(ts)
	for _, c := range pricing.Account(e.item, o) {
		if c.WCU <= 0 {
			continue
		}
		t := touch{table: w.Table, target: e.spaceOf(c.Target), key: c.Key, side: write, units: c.WCU}
		if f == nil {
			t.units = 0 // the item it replaces is unknown, and with it the size
		}
		// An LSI's charge lands on its table's partition: one touch.
		if i := slices.IndexFunc(ts[first:], func(o touch) bool { return o.target == t.target && o.key == t.key }); i >= 0 {
			ts[first+i].units += t.units
			continue
		}
		ts = append(ts, t)
	}
	return ts
}

// predictWrite is the write w would make on old (nil: no item), as the
// meter observes one: false when its new image cannot be computed.
func predictWrite(w ddbitem.Write, old ddbitem.Item) (pricing.Write, bool) {
	after, err := w.After(old)
	if err != nil {
		return pricing.Write{}, false
	}
	after = nonEmpty(after)
	if holds, err := w.Holds(old); err == nil && !holds {
		return pricing.Write{Before: old, After: old, Failed: true, Attempted: after, Key: w.Key}, true
	}
	return pricing.Write{Before: old, After: after, Key: w.Key}, true
}

// readTouches is a read of the item at key on table: its partition, with
// the units pricing.Account charges for the item as the caller's shadow
// holds it (consistent: a strongly consistent read; tx: in a transaction),
// 0 when the emulator has no shadow to ask.
func (e *Emulator) readTouches(ts []touch, table string, key ddbitem.Item, consistent, tx bool) []touch {
	t := touch{table: table, target: designs.MainTable, key: ddbitem.KeyText(key[e.item.PK]), side: read}
	f := e.lookup.Load()
	if f == nil {
		return append(ts, t)
	}
	o := pricing.Observation{Op: designs.GetItem, Consistent: consistent, Transactional: tx, Addressed: []ddbitem.Item{key}}
	if item := (*f)(table, e.item.Key(key)); item != nil {
		o.Reads = []ddbitem.Item{item}
	}
	for _, c := range pricing.Account(e.item, o) {
		t.units += c.RCU
	}
	return append(ts, t)
}

// spaceOf is the space a charge's target lands in: a GSI's own, else the
// table's (an LSI lives in its table's partitions).
func (e *Emulator) spaceOf(target string) string {
	for _, ix := range e.schema.GSIs {
		if ix.Name == target {
			return target
		}
	}
	return designs.MainTable
}

// nonEmpty is nil for an image with no attributes: no item.
func nonEmpty(img ddbitem.Item) ddbitem.Item {
	if len(img) == 0 {
		return nil
	}
	return img
}

// consistent reports whether a read asked for strong consistency.
func consistent(b *bool) bool { return b != nil && *b }
