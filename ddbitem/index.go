package ddbitem

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Entry is the item as index ix of s stores it: nil when the item lacks any
// of the index's key attributes, every one of a multi-attribute key's
// included (a sparse index holds no entry for it). An entry holds the
// index keys, the table's keys and the projected attributes; ALL projects
// the whole item.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.StorageConsiderations
// and, for multi-attribute keys, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
func (s Schema) Entry(ix Index, item Item) Item {
	if item == nil || !holds(item, ix.PKs, ix.PK) || !holds(item, ix.SKs, ix.SK) {
		return nil
	}
	if ix.Projection == types.ProjectionTypeAll || ix.Projection == "" {
		return item
	}
	keys := ix.KeyAttrs()
	e := make(Item, len(keys)+2+len(ix.NonKey))
	for _, name := range append(keys, s.PK, s.SK) {
		if v, ok := item[name]; ok && name != "" {
			e[name] = v
		}
	}
	if ix.Projection == types.ProjectionTypeInclude {
		for _, name := range ix.NonKey {
			if v, ok := item[name]; ok {
				e[name] = v
			}
		}
	}
	return e
}

// holds reports whether item has every attribute of a key given as list,
// or as one (empty: no such key) when list is empty; without allocating,
// for the per-call path.
func holds(item Item, list []string, one string) bool {
	if len(list) == 0 {
		return one == "" || item[one] != nil
	}
	for _, name := range list {
		if item[name] == nil {
			return false
		}
	}
	return true
}

// SameKey reports whether entries a and b of ix hold equal values for
// every attribute of its key: when they do not, a write moved the entry,
// which DynamoDB charges as a delete and a put.
func (ix Index) SameKey(a, b Item) bool {
	for _, list := range [2][]string{ix.PartitionAttrs(), ix.SortAttrs()} {
		for _, name := range list {
			if !EqualValue(a[name], b[name]) {
				return false
			}
		}
	}
	return true
}

// EntryOf is Entry for the index named name; nil when s has no such index.
func (s Schema) EntryOf(name string, item Item) Item {
	ix, ok := s.Index(name)
	if !ok {
		return nil
	}
	return s.Entry(ix, item)
}

// Projects reports whether index name stores whole items (ALL), so that a
// read of it returns items as the table holds them.
func (s Schema) Projects(name string) bool {
	ix, ok := s.Index(name)
	return !ok || ix.Projection == types.ProjectionTypeAll || ix.Projection == ""
}

// Covers reports whether every attribute of item is in entry: a read of an
// LSI that returned attributes its entry lacks made DynamoDB fetch the item
// from the table.
func Covers(entry, item Item) bool {
	for n := range item {
		if _, ok := entry[n]; !ok {
			return false
		}
	}
	return true
}

// CollectionBytes is what item adds to its item collection: its size, plus
// its entries in the table's LSIs.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections
func (s Schema) CollectionBytes(item Item) int {
	n := Size(item)
	for _, ix := range s.Indexes {
		if ix.Local {
			n += Size(s.Entry(ix, item))
		}
	}
	return n
}
