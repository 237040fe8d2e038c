package shape

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// SamplesMade is how many sample items the import makes per facet of a
// model that has none.
const SamplesMade = 2

// makeSamples gives a model without sample items its own, so that its
// keys, indexes and billing still make a design whose specs expect exact
// items: per facet (the table alone when it has none) SamplesMade items,
// each key laid out as the facet's alias spells it (ITEMS#ItemID:
// ITEMS#itemid-1; a segment in capitals is a constant) or else as
// <FACET>#<n>, every index key filled, and the facet's text, number and
// bool attributes. The numbers run over the whole table, so no two items
// share a key.
func makeSamples(t *modelfile.Table, sep string) {
	facets := t.TableFacets
	if len(facets) == 0 {
		alias := modelfile.KeyAlias{PartitionKeyAlias: t.KeyAttributes.PartitionKey.AttributeName}
		if sk := t.KeyAttributes.SortKey; sk != nil {
			alias.SortKeyAlias = sk.AttributeName
		}
		facets = []modelfile.Facet{{FacetName: t.TableName, KeyAttributeAlias: alias}}
	}
	declared := map[string]string{}
	for _, a := range t.NonKeyAttributes {
		declared[a.AttributeName] = a.AttributeType
	}
	n := 0
	keys := map[string]bool{}
	keyText := func(item map[string]types.AttributeValue) string {
		text := ddbitem.KeyText(item[t.KeyAttributes.PartitionKey.AttributeName])
		if sk := t.KeyAttributes.SortKey; sk != nil {
			text += "\x00" + ddbitem.KeyText(item[sk.AttributeName])
		}
		return text
	}
	for i := range facets {
		f := &facets[i]
		tag := strings.ToUpper(GoName(f.FacetName))
		for range SamplesMade {
			n++
			item := map[string]types.AttributeValue{}
			for _, a := range f.NonKeyAttributes {
				switch declared[a] {
				case "S", "":
					item[a] = &types.AttributeValueMemberS{Value: fmt.Sprintf("%s %d", a, n)}
				case "N":
					item[a] = &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
				case "BOOL":
					item[a] = &types.AttributeValueMemberBOOL{Value: n%2 == 1}
				}
			}
			set := func(a modelfile.Attribute, alias string) {
				if a.AttributeType == "N" {
					item[a.AttributeName] = &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
					return
				}
				if alias == "" || alias == a.AttributeName {
					alias = tag + sep + a.AttributeName
				}
				segs := strings.Split(alias, sep)
				for j, s := range segs {
					if strings.ToUpper(s) != s || strings.IndexFunc(s, unicode.IsLetter) < 0 {
						segs[j] = fmt.Sprintf("%s-%d", strings.ToLower(GoName(s)), n)
					}
				}
				item[a.AttributeName] = &types.AttributeValueMemberS{Value: strings.Join(segs, sep)}
			}
			set(t.KeyAttributes.PartitionKey, f.KeyAttributeAlias.PartitionKeyAlias)
			if sk := t.KeyAttributes.SortKey; sk != nil {
				set(*sk, f.KeyAttributeAlias.SortKeyAlias)
			}
			pk := t.KeyAttributes.PartitionKey.AttributeName
			if s, ok := item[pk].(*types.AttributeValueMemberS); ok && keys[keyText(item)] { // an alias of constants alone
				item[pk] = &types.AttributeValueMemberS{Value: fmt.Sprintf("%s%s%d", s.Value, sep, n)}
			}
			keys[keyText(item)] = true
			for _, ix := range slices.Concat(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes) {
				for _, a := range modelfile.KeyAttrs(ix.KeyAttributes) {
					if _, ok := item[a.AttributeName]; !ok {
						set(a, "")
					}
				}
			}
			f.TableData = append(f.TableData, modelfile.Item{Attrs: item})
		}
	}
	t.TableFacets = facets
	t.TableData = nil
}

// aliasSeparator is the separator a model's key aliases use, for a model
// without samples to read it from.
func aliasSeparator(t modelfile.Table) string {
	var text strings.Builder
	for _, f := range t.TableFacets {
		text.WriteString(f.KeyAttributeAlias.PartitionKeyAlias + f.KeyAttributeAlias.SortKeyAlias)
	}
	best, count := "#", 0
	for _, sep := range []string{"#", "|", ":"} {
		if c := strings.Count(text.String(), sep); c > count {
			best, count = sep, c
		}
	}
	return best
}
