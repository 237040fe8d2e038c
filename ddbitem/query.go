package ddbitem

import (
	"cmp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// KeyRange is what a Query reads, before any filter: the entries of Index
// ("" for the table) whose keys satisfy Key, in the index's sort key order
// (descending unless Forward), after the entry at Start when it is set.
type KeyRange struct {
	Index   string
	Key     Condition // the KeyConditionExpression
	Forward bool
	Start   Item // the ExclusiveStartKey; nil from the first entry
}

// Range lists, in the order a Query reads them, the entries among items
// that r covers: index entries on an index (whole items on the table or an
// ALL index), sparse items left out. DynamoDB orders a partition by its sort
// key, attribute by attribute on a multi-attribute key; entries of a GSI
// that share a sort key value have no documented order, and come here in
// table key order. A key condition that breaks the key rules is refused as
// DynamoDB refuses it (CheckKeyCondition); an empty one reads every entry.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
func (s Schema) Range(items []Item, r KeyRange) ([]Item, error) {
	if strings.TrimSpace(r.Key.Expr) != "" { // none: every entry, for callers that list them
		if err := s.CheckKeyCondition(r.Index, r.Key); err != nil {
			return nil, err
		}
	}
	order := s.sortOrder(r.Index)
	// The key condition names one partition: the others are passed over
	// without evaluating it, which costs far more than a comparison.
	pks := s.PartitionAttrs(r.Index)
	part, known := s.QueryPartition(r.Index, r.Key)
	holds, err := r.Key.compile()
	if err != nil {
		return nil, err
	}
	var out []Item
	for _, it := range items {
		if known && !inPartition(it, pks, part) {
			continue
		}
		e := it
		if r.Index != "" {
			if e = s.EntryOf(r.Index, it); e == nil {
				continue
			}
		}
		ok, err := holds(e)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, e)
		}
	}
	dir := 1
	if !r.Forward {
		dir = -1
	}
	byKey := func(a, b Item) int { return dir * keyOrder(order, a, b) }
	slices.SortFunc(out, byKey)
	if r.Start != nil {
		first, _ := slices.BinarySearchFunc(out, r.Start, byKey)
		if first < len(out) && byKey(out[first], r.Start) == 0 {
			first++
		}
		out = out[first:]
	}
	return out, nil
}

// sortOrder is the attributes that order a partition of index: its key's
// (the partition key's first, equal within a partition), then the table's key (which tells apart a GSI's entries that share
// a sort key value, and is the sort key itself on the table).
func (s Schema) sortOrder(index string) []string {
	attrs := []string{s.PK, s.SK}
	if ix, ok := s.Index(index); ok {
		attrs = append(ix.KeyAttrs(), attrs...)
	}
	return slices.DeleteFunc(attrs, func(a string) bool { return a == "" })
}

// inPartition reports whether item holds part's values under the
// attributes pks.
func inPartition(item Item, pks []string, part Item) bool {
	for _, a := range pks {
		if !EqualValue(item[a], part[a]) {
			return false
		}
	}
	return true
}

// keyOrder compares two entries attribute by attribute, by CompareKey.
func keyOrder(attrs []string, a, b Item) int {
	for _, name := range attrs {
		if c := CompareKey(a[name], b[name]); c != 0 {
			return c
		}
	}
	return 0
}

// CompareKey orders two key values as DynamoDB sorts a partition: values
// of one type by its order (numbers by value, strings and binaries by
// their bytes), values of different types by type name, a missing value
// first.
func CompareKey(a, b types.AttributeValue) int {
	ta, tb := TypeName(a), TypeName(b)
	if ta != tb {
		return cmp.Compare(ta, tb)
	}
	if c, ok := order(a, b); ok {
		return c
	}
	return 0
}

// SameKey reports whether entry holds every key attribute of key with an
// equal value: the entry a LastEvaluatedKey names.
func SameKey(entry, key Item) bool {
	for name, v := range key {
		if !EqualValue(entry[name], v) {
			return false
		}
	}
	return true
}
