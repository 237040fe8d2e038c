package shape

import (
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// facetsByType splits a model without facets into its item kinds: by its
// type attribute when every item has one, else by the words of the
// table's key layouts, so that a user's "metadata" item and its
// "comm#<date>#<id>" items, or "u#1#follower" and "u#1#post", are apart.
// Keys without words are all the table's single entity.
func facetsByType(t modelfile.Table, sep string) []modelfile.Facet {
	attr := ""
	for _, a := range designs.TypeAttributes {
		if all(t.TableData, func(it modelfile.Item) bool { _, ok := it.Attrs[a].(*types.AttributeValueMemberS); return ok }) {
			attr = a
			break
		}
	}
	keys := []string{t.KeyAttributes.PartitionKey.AttributeName}
	if sk := t.KeyAttributes.SortKey; sk != nil {
		keys = append(keys, sk.AttributeName)
	}
	// A plain value (no separator) is a word of the layout only where the
	// attribute mixes plain and composite values, and more than one item
	// holds it: "metadata" beside "comm#...", not "alice" beside "bob".
	mixed, count := map[string]bool{}, map[string]int{}
	for _, k := range keys {
		composite, plain := false, false
		for _, it := range t.TableData {
			v := ddbitem.KeyText(it.Attrs[k])
			composite = composite || strings.Contains(v, sep)
			plain = plain || !strings.Contains(v, sep)
			count[k+"\x00"+v]++
		}
		mixed[k] = composite && plain
	}
	var out []modelfile.Facet
	at := map[string]int{}
	for _, it := range t.TableData {
		name, kind := "", ""
		if attr != "" {
			name = it.Attrs[attr].(*types.AttributeValueMemberS).Value
			kind = name
		} else {
			words := make([][]string, 2)
			for n, k := range keys {
				v := ddbitem.KeyText(it.Attrs[k])
				segs := designs.SplitKey(v, sep, -1)
				for i, s := range segs {
					word := i%2 == 0 && strings.IndexFunc(s, unicode.IsLetter) >= 0 && !strings.ContainsFunc(s, unicode.IsDigit)
					if len(segs) == 1 {
						word = word && mixed[k] && count[k+"\x00"+v] > 1
					}
					if word {
						words[n] = append(words[n], s)
						kind += s
					}
					kind += "\x00"
				}
				kind += "\x01"
			}
			name = kindName(words[0], words[1], strings.ToLower(GoName(t.TableName)))
		}
		i, ok := at[kind]
		if !ok {
			i = len(out)
			at[kind] = i
			out = append(out, modelfile.Facet{FacetName: name})
		}
		out[i].TableData = append(out[i].TableData, it)
	}
	uniqueFacetNames(out)
	return out
}

// kindName names an item kind after the words of its keys: the last word
// of its partition key after the first (u#1#follower: follower), else the
// first word of its sort key (comm), else the partition key's tag; the
// longest word rather than a one-letter one. None: fallback.
func kindName(pk, sk []string, fallback string) string {
	name := fallback
	switch {
	case len(pk) > 1:
		name = pk[len(pk)-1]
	case len(sk) > 0:
		name = sk[0]
	case len(pk) == 1:
		name = pk[0]
	}
	if len([]rune(name)) < 2 {
		for _, w := range append(pk, sk...) {
			if len(w) > len(name) {
				name = w
			}
		}
	}
	return name
}

// uniqueFacetNames keeps kinds that share a word apart: the second
// "comm" is "comm2".
func uniqueFacetNames(fs []modelfile.Facet) {
	taken := map[string]bool{}
	for i := range fs {
		fs[i].FacetName = unique(fs[i].FacetName, taken)
	}
}
