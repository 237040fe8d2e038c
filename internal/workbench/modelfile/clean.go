package modelfile

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DropEmptyIndexKeys takes "" out of the index keys of t's samples, as
// Workbench saves an item that is not in an index: DynamoDB refuses an
// empty text key attribute, and an item without the attribute is simply
// not in that (sparse) index. It returns what it did, as a note, or "".
// Source: https://aws.amazon.com/about-aws/whats-new/2020/05/amazon-dynamodb-now-supports-empty-values-for-non-key-string-and-binary-attributes-in-dynamodb-tables/
func DropEmptyIndexKeys(t *Table) string {
	own := KeyAttrs(t.KeyAttributes)
	var keys []string
	for _, n := range t.KeyNames() {
		if !slices.ContainsFunc(own, func(a Attribute) bool { return a.AttributeName == n }) && !slices.Contains(keys, n) {
			keys = append(keys, n)
		}
	}
	dropped := map[string]int{}
	clean := func(items []Item) []Item {
		out := items
		for i, it := range items {
			var empty []string
			for _, k := range keys {
				if s, ok := it.Attrs[k].(*types.AttributeValueMemberS); ok && s.Value == "" {
					empty = append(empty, k)
				}
			}
			if len(empty) == 0 {
				continue
			}
			if &out[0] == &items[0] { // the parsed model stays as it was read
				out = slices.Clone(items)
			}
			attrs := maps.Clone(it.Attrs)
			for _, k := range empty {
				delete(attrs, k)
				dropped[k]++
			}
			out[i] = Item{Attrs: attrs}
		}
		return out
	}
	t.TableFacets = slices.Clone(t.TableFacets)
	for i := range t.TableFacets {
		t.TableFacets[i].TableData = clean(t.TableFacets[i].TableData)
	}
	t.TableData = clean(t.TableData)
	if len(dropped) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(dropped)) {
		parts = append(parts, fmt.Sprintf("%s from %d", k, dropped[k]))
	}
	return fmt.Sprintf("index keys holding \"\" left out of the samples (%s): DynamoDB refuses an empty text key, and an item without the attribute is not in that index", strings.Join(parts, ", "))
}
