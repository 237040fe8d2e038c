package pricing

import (
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// write charges one item write: the table for the larger of the item's
// before and after images, rounded up to 1 KB (at least one unit, so a
// delete of a missing item costs one), doubled in a transaction; then every
// index whose entry the write changed. A write whose condition failed costs
// the table the larger of the item as it stands and the item it would have
// written (the guide's example: 300 KB stored, 310 KB attempted, 310 KB
// charged; one unit when both are small or absent) and changes no index.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html#write-operation-consumption
// and, for a small attempted item over a ~3 KB stored one costing 3 units,
// real DynamoDB as captured in https://github.com/nubo-db/dynoxide
// (tests/partiql_index_consumed_capacity.rs, capture U2).
func (a *accountant) write(w Write) {
	size := max(ddbitem.Size(w.Before), ddbitem.Size(w.After), ddbitem.Size(w.Attempted))
	wcu := units(size, writeUnitBytes)
	if a.transactional() {
		wcu *= txFactor
	}
	key := ddbitem.KeyText(a.itemKey(w)[a.s.PK])
	a.charge(designs.MainTable, key, 0, wcu)
	a.perItem = append(a.perItem, ItemCharge{Key: a.itemKey(w), WCU: wcu, TxWrite: a.transactional()})
	a.touched(designs.MainTable, key, a.itemKey(w))
	if w.Failed {
		return
	}
	for _, ix := range a.s.Indexes {
		a.indexWrite(ix, a.s.Entry(ix, w.Before), a.s.Entry(ix, w.After))
	}
}

// itemKey is the image that carries the write's table key.
func (a *accountant) itemKey(w Write) ddbitem.Item {
	switch {
	case w.After != nil:
		return w.After
	case w.Before != nil:
		return w.Before
	}
	return w.Key
}

// indexWrite charges index ix for an entry going from old to new (nil: no
// entry). An added or removed entry is one write of its size; an entry
// updated in place is one write of the larger size, none if it did not
// change; an entry whose index key changed is a delete on the old partition
// and a put on the new one, whichever attribute of a multi-attribute key
// changed. Index writes are not doubled in transactions.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ThroughputConsiderations.Writes
func (a *accountant) indexWrite(ix ddbitem.Index, old, new ddbitem.Item) {
	pk := ix.PartitionText
	for _, e := range []ddbitem.Item{old, new} {
		if e != nil {
			a.touched(ix.Name, pk(e), e)
		}
	}
	switch {
	case old == nil && new == nil:
	case old == nil:
		a.charge(ix.Name, pk(new), 0, units(ddbitem.Size(new), writeUnitBytes))
	case new == nil:
		a.charge(ix.Name, pk(old), 0, units(ddbitem.Size(old), writeUnitBytes))
	case !ix.SameKey(old, new): // any attribute of a multi-attribute key
		a.charge(ix.Name, pk(old), 0, units(ddbitem.Size(old), writeUnitBytes))
		a.charge(ix.Name, pk(new), 0, units(ddbitem.Size(new), writeUnitBytes))
	case !ddbitem.Equal(old, new):
		a.charge(ix.Name, pk(new), 0, units(max(ddbitem.Size(old), ddbitem.Size(new)), writeUnitBytes))
	}
}
