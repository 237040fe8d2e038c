package cost

import (
	"fmt"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// perCall is what one call of a pattern consumes, in request units.
type perCall struct{ rru, wru float64 }

// perCall reckons what one call of p consumes from the seeded sizes, by its
// main operation, for a pattern that cannot run on the in-memory table
// (see the package comment for the assumptions).
func (f *fixture) perCall(p designs.Pattern) (perCall, error) {
	switch p.Op {
	case designs.GetItem:
		return perCall{rru: f.itemRead(designs.GetItem)}, nil
	case designs.BatchGetItem:
		return perCall{rru: actions(p, ddbitem.MaxBatchGet) * f.itemRead(designs.BatchGetItem)}, nil
	case designs.TransactGetItems:
		return perCall{rru: actions(p, ddbitem.MaxTransactActions) * f.itemRead(designs.TransactGetItems)}, nil
	case designs.Query, designs.Scan:
		rru, err := f.rangeRead(p)
		return perCall{rru: rru}, err
	case designs.PutItem, designs.UpdateItem, designs.DeleteItem:
		return perCall{wru: f.itemWrite(false)}, nil
	case designs.BatchWriteItem:
		return perCall{wru: actions(p, ddbitem.MaxBatchWrite) * f.itemWrite(false)}, nil
	case designs.TransactWriteItems:
		return perCall{wru: actions(p, ddbitem.MaxTransactActions) * f.itemWrite(true)}, nil
	}
	return perCall{}, fmt.Errorf("pattern %s: %w: operation %q is none the estimate knows", p.ID, designs.ErrInvalidInput, p.Op)
}

// actions is how many items one batch or transaction reads or writes: its
// declared MaxActions or MaxItems, else the most the API allows (an upper
// bound; every transaction pattern of the repository declares its own).
func actions(p designs.Pattern, limit int) float64 {
	switch {
	case p.MaxActions > 0:
		return float64(p.MaxActions)
	case p.MaxItems > 0:
		return float64(p.MaxItems)
	}
	return float64(limit)
}

// itemRead is what reading one item by key costs with op, strongly
// consistent, on average over the seeded items.
func (f *fixture) itemRead(op designs.Operation) float64 {
	return f.mean("read "+string(op), func(it ddbitem.Item) float64 {
		o := pricing.Observation{Op: op, Consistent: true}
		if it != nil {
			o.Reads = []ddbitem.Item{it}
		}
		return sum(pricing.Account(f.keys, o), true)
	})
}

// itemWrite is what writing one item costs, on average over the seeded
// items: the table's write (doubled in a transaction), and as much again on
// every index, since an entry is never larger than its item and index
// writes are not doubled in a transaction.
func (f *fixture) itemWrite(tx bool) float64 {
	table := func(op designs.Operation) float64 {
		return f.mean("write "+string(op), func(it ddbitem.Item) float64 {
			cs := pricing.Account(f.keys, pricing.Observation{Op: op, Writes: []pricing.Write{{After: it}}})
			for _, c := range cs {
				if c.Target == designs.MainTable {
					return c.WCU
				}
			}
			return 0
		})
	}
	op := designs.PutItem
	if tx {
		op = designs.TransactWriteItems
	}
	return table(op) + float64(len(f.keys.Indexes))*table(designs.PutItem)
}

// mean is the mean of unit over the seeded items (unit(nil), the minimum
// charge, when there are none), worked out once per what.
func (f *fixture) mean(what string, unit func(ddbitem.Item) float64) float64 {
	if v, ok := f.memo[what]; ok {
		return v
	}
	v := unit(nil)
	if len(f.items) > 0 {
		v = 0
		for _, it := range f.items {
			v += unit(it)
		}
		v /= float64(len(f.items))
	}
	f.memo[what] = v
	return v
}

// rangeRead is what one Query or Scan of p costs. A Query reads a mean
// partition of its table or index: its first page (the first MaxItems
// entries when declared), or every page when the pattern reads them all.
// A Scan reads every page of its table or index, or only the first when it
// hands out pages. Table reads are strongly consistent, index reads not.
func (f *fixture) rangeRead(p designs.Pattern) (float64, error) {
	index := p.Index
	if index == designs.MainTable {
		index = ""
	}
	key := fmt.Sprintf("%s %q %d %t %t", p.Op, index, p.MaxItems, p.Pages, p.AllPages)
	if v, ok := f.memo[key]; ok {
		return v, nil
	}
	o := pricing.Observation{Op: p.Op, Index: index, Consistent: index == ""}
	read := func(pages [][]ddbitem.Item, all bool) float64 {
		if !all {
			pages = pages[:1]
		}
		units := 0.0
		for _, page := range pages {
			o.Reads = page
			units += sum(pricing.Account(f.keys, o), true)
		}
		return units
	}
	entries, err := f.targetEntries(index)
	if err != nil {
		return 0, fmt.Errorf("pattern %s: %w", p.ID, err)
	}
	var v float64
	if p.Op == designs.Scan {
		v = read(paged(entries, 0), p.AllPages || !p.Pages)
	} else {
		limit := p.MaxItems
		if p.AllPages {
			limit = 0
		}
		parts := partitions(entries, f.keys.PartitionAttrs(index))
		for _, part := range parts {
			v += read(paged(part, limit), p.AllPages)
		}
		if len(parts) > 0 {
			v /= float64(len(parts))
		} else {
			v = read(paged(nil, 0), false)
		}
	}
	f.memo[key] = v
	return v, nil
}

// targetEntries is what index ("" for the table) holds of the seeded items,
// in the order a Query or Scan reads it.
func (f *fixture) targetEntries(index string) ([]ddbitem.Item, error) {
	if es, ok := f.entries[index]; ok {
		return es, nil
	}
	es, err := f.keys.Range(f.items, ddbitem.KeyRange{Index: index, Forward: true})
	if err != nil {
		return nil, err
	}
	f.entries[index] = es
	return es, nil
}

// partitions splits entries in key order by their partition key value
// (the tuple of pks, the partition key's attributes).
func partitions(entries []ddbitem.Item, pks []string) [][]ddbitem.Item {
	var out [][]ddbitem.Item
	start := 0
	same := func(a, b ddbitem.Item) bool {
		for _, pk := range pks {
			if !ddbitem.EqualValue(a[pk], b[pk]) {
				return false
			}
		}
		return true
	}
	for i := 1; i <= len(entries); i++ {
		if i == len(entries) || !same(entries[i], entries[start]) {
			out = append(out, entries[start:i])
			start = i
		}
	}
	return out
}

// paged splits entries into the pages a Query or Scan returns: up to 1 MB
// each, and up to limit entries in the first (0: no limit). There is
// always a first page, empty when entries is.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html
func paged(entries []ddbitem.Item, limit int) [][]ddbitem.Item {
	if limit > 0 && len(entries) > limit {
		entries = entries[:limit]
	}
	pages := [][]ddbitem.Item{nil}
	bytes := 0
	for _, e := range entries {
		size := ddbitem.Size(e)
		last := len(pages) - 1
		if len(pages[last]) > 0 && bytes+size > ddbitem.MaxPageBytes {
			pages = append(pages, nil)
			last, bytes = last+1, 0
		}
		pages[last] = append(pages[last], e)
		bytes += size
	}
	return pages
}
