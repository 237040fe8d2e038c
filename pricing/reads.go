package pricing

import (
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// itemReads charges GetItem, BatchGetItem and TransactGetItems: each item
// rounded up to 4 KB on its own (a batch is a set of GetItems), and each key
// that found no item the minimum unit on the partition it named.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html#read-operation-consumption
// and its earlier revision, which states the charge for a missing item:
// https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/CapacityUnitCalculations.md
// (two units per missing key in a transaction, as measured in
// https://github.com/ExtendDB/extenddb/issues/76).
func (a *accountant) itemReads() {
	f := a.readFactor(false)
	for _, item := range a.o.Reads {
		key := ddbitem.KeyText(item[a.s.PK])
		a.charge(designs.MainTable, key, f*units(ddbitem.Size(item), readUnitBytes), 0)
		a.touched(designs.MainTable, key, item)
	}
	for _, key := range a.o.Addressed {
		a.touched(designs.MainTable, ddbitem.KeyText(key[a.s.PK]), key)
	}
	for _, key := range a.missedKeys() {
		a.charge(designs.MainTable, key, f, 0)
	}
}

// missedKeys lists the partition key of every named key no read found.
// When the call named no keys, it lists o.Misses unknown keys ("") instead,
// and at least one for a GetItem that found nothing.
func (a *accountant) missedKeys() []string {
	found := map[string]bool{}
	for _, item := range a.o.Reads {
		id, _ := a.s.KeyID(item)
		found[id] = true
	}
	var missed []string
	for _, key := range a.o.Addressed {
		if id, _ := a.s.KeyID(key); !found[id] {
			missed = append(missed, ddbitem.KeyText(key[a.s.PK]))
		}
	}
	if len(a.o.Addressed) > 0 {
		return missed
	}
	n := a.o.Misses
	if n == 0 && a.o.Op == designs.GetItem && len(a.o.Reads) == 0 {
		n = 1
	}
	for range n {
		missed = append(missed, "")
	}
	return missed
}

// localRead charges a filtered or counting read whose evaluated items are
// unknown at DynamoDB Local's figure, per table and index, on the partition
// a Query named (a Scan's is unknown). It reports false when Local gave no
// figure.
func (a *accountant) localRead(pks []string) bool {
	local := LocalUnits(a.o)
	if local == nil {
		return false
	}
	key := ""
	if a.o.Op == designs.Query && len(a.o.Addressed) > 0 {
		key = ddbitem.PartitionText(pks, a.o.Addressed[0])
	}
	for target, u := range local {
		if target == WholeCall {
			target = designs.MainTable
			if a.o.Index != "" {
				target = a.o.Index
			}
		}
		a.charge(target, key, u, 0)
	}
	return true
}

// rangeRead charges a Query or Scan: the sizes of the items (index entries,
// on an index) are summed and the sum rounded up to 4 KB once; a read that
// found nothing still costs the minimum. A filter or a COUNT changes
// nothing: the read is charged for the items it evaluated, which Reads
// holds. An LSI query
// that returned attributes the index does not project also read each base
// item, rounded up on its own. A Query reads one partition; a Scan's units
// are shared among the partitions it read by their bytes.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ThroughputConsiderations.Reads
func (a *accountant) rangeRead() {
	target, pks := designs.MainTable, a.s.PartitionAttrs("")
	ix, onIndex := a.s.Index(a.o.Index)
	if onIndex {
		target, pks = ix.Name, ix.PartitionAttrs()
	}
	if a.o.Evaluated == EvaluatedLocal && a.localRead(pks) {
		return
	}
	f := a.readFactor(onIndex && !ix.Local)

	total, fetched := 0, map[string]float64{}
	byKey := map[string]int{}
	var order []string
	for _, item := range a.o.Reads {
		size := ddbitem.Size(item)
		if onIndex {
			e := a.s.Entry(ix, item)
			if ix.Local && len(e) < len(item) {
				fetched[ddbitem.PartitionText(pks, item)] += f * units(size, readUnitBytes)
			}
			size = ddbitem.Size(e)
		}
		key := ddbitem.PartitionText(pks, item)
		a.touched(target, key, item)
		if u := fetched[key]; u > 0 {
			a.touched(designs.MainTable, key, item)
		}
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] += size
		total += size
	}
	all := f * units(total, readUnitBytes)

	switch {
	case a.o.Op == designs.Query || len(order) == 0:
		key := ""
		if len(a.o.Addressed) > 0 {
			key = ddbitem.PartitionText(pks, a.o.Addressed[0])
		} else if len(order) > 0 {
			key = order[0]
		}
		a.charge(target, key, all, 0)
	default: // a Scan: share by bytes read
		for _, key := range order {
			share := 1 / float64(len(order))
			if total > 0 {
				share = float64(byKey[key]) / float64(total)
			}
			a.charge(target, key, all*share, 0)
		}
	}
	for _, key := range order {
		if u := fetched[key]; u > 0 {
			a.charge(designs.MainTable, key, u, 0)
		}
	}
}
