package shape

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// Infer reads the design in table t of a parsed model.
func Infer(name string, t modelfile.Table) (*Design, error) {
	made := len(t.Samples()) == 0
	if made {
		t.TableFacets = slices.Clone(t.TableFacets)
		makeSamples(&t, aliasSeparator(t))
	}
	empty := modelfile.DropEmptyIndexKeys(&t)
	d := &Design{Name: name, Table: t, Schema: t.Schema(), Sep: separator(t), Notes: slices.Clone(t.Notes)}
	if empty != "" {
		d.Notes = append(d.Notes, empty)
	}
	if made {
		d.Notes = append(d.Notes, fmt.Sprintf("the model has no sample items: the import made %d per entity from its keys, aliases and attributes, for the specs to expect (replace them with real ones in samples.go)", SamplesMade))
	}
	at := "$.DataModel[?(@.TableName=='" + t.TableName + "')]"
	for _, name := range slices.Sorted(maps.Keys(d.Schema.Types)) { // every key attribute, the indexes' included, resolved
		if d.Schema.Types[name] == types.ScalarAttributeTypeB {
			return nil, modelfile.PathErr(at, fmt.Sprintf("key attribute %s is binary: binary keys cannot be imported, since the generated key builders make text (declare it S or N)", name))
		}
	}
	consts := map[string]string{}
	for _, ix := range slices.Concat(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes) {
		c := IndexConst(ix.IndexName)
		if other, ok := consts[c]; ok {
			return nil, modelfile.PathErr(at, fmt.Sprintf("indexes %s and %s both become the Go constant %s: rename one of them in the model", other, ix.IndexName, c))
		}
		consts[c] = ix.IndexName
	}
	facets := t.TableFacets
	if len(facets) == 0 {
		facets = facetsByType(t, d.Sep)
	} else if len(t.TableData) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("the table's own sample items (%d) belong to no facet: not imported (put them in a facet in Workbench)", len(t.TableData)))
	}
	d.Schema.TypeAttribute = typeAttribute(t, facets)
	for _, f := range facets {
		if len(f.TableData) == 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("facet %s has no sample items: no entity made for it (add samples in Workbench)", f.FacetName))
			continue
		}
		d.Entities = append(d.Entities, d.entity(f))
	}
	if len(d.Entities) == 0 {
		return nil, modelfile.PathErr(at, "no sample items: the import proves each pattern on the model's sample data, so add some in Workbench")
	}
	if err := d.Schema.CheckKeys(); err != nil {
		return nil, modelfile.PathErr(at, err.Error())
	}
	uniqueNames(d.Entities)
	d.patterns()
	d.modelPatterns(t.AccessPatterns)
	return d, nil
}

// separator is the character the sample keys (the table's and the
// indexes') use most, '#' on a tie. Other attributes do not count, nor
// does the ':' of a time of day ("2024-05-01T10:00:00"), which sort keys
// often end with.
func separator(t modelfile.Table) string {
	names := slices.Compact(slices.Sorted(slices.Values(t.KeyNames())))
	var keys strings.Builder // every sample key's text, times of day left out
	for _, it := range t.Samples() {
		for _, k := range names {
			if s, ok := it[k].(*types.AttributeValueMemberS); ok {
				keys.WriteString(timeOfDay.ReplaceAllString(s.Value, "") + "\n")
			}
		}
	}
	best, count := "#", 0
	for _, sep := range []string{"#", "|", ":", "_"} {
		if n := strings.Count(keys.String(), sep); n > count {
			best, count = sep, n
		}
	}
	return best
}

var timeOfDay = regexp.MustCompile(`[0-9]{2}:[0-9]{2}(:[0-9]{2})?`)

// typeAttribute is the attribute that holds one constant text per facet,
// distinct across facets (the facet's name, usually); when there is none,
// the import adds "EntityType" (or another free name) to every item. A key
// attribute of the table is never one, nor an index's unless its name
// says so (a GSI that lists the items of a type): the entity would write
// its constant over the key. With one facet, every constant attribute
// would qualify, so only a name that designs.TypeAttributes lists is
// taken.
func typeAttribute(t modelfile.Table, facets []modelfile.Facet) string {
	if a := t.TypeAttr; a != "" && all(facets, func(f modelfile.Facet) bool {
		return all(f.TableData, func(it modelfile.Item) bool { _, ok := it.Attrs[a].(*types.AttributeValueMemberS); return ok })
	}) {
		return a // an export's, named in its metadata
	}
	candidates := map[string]bool{}
	for _, a := range t.NonKeyAttributes {
		if a.AttributeType == "S" || a.AttributeType == "" {
			candidates[a.AttributeName] = true
		}
	}
	for _, f := range facets {
		for _, it := range f.TableData {
			for n, v := range it.Attrs {
				if _, ok := v.(*types.AttributeValueMemberS); ok {
					candidates[n] = true
				}
			}
		}
	}
	keys := t.KeyNames()
	own := []string{t.KeyAttributes.PartitionKey.AttributeName}
	if sk := t.KeyAttributes.SortKey; sk != nil {
		own = append(own, sk.AttributeName)
	}
	for _, n := range keys {
		if slices.Contains(own, n) || !slices.Contains(designs.TypeAttributes, n) {
			delete(candidates, n)
		}
	}
	var ok []string
	for name := range candidates {
		if len(facets) < 2 && !slices.Contains(designs.TypeAttributes, name) {
			continue
		}
		seen := map[string]bool{}
		good := true
		for _, f := range facets {
			val := ""
			for i, it := range f.TableData {
				s, isS := it.Attrs[name].(*types.AttributeValueMemberS)
				if !isS || (i > 0 && s.Value != val) {
					good = false
					break
				}
				val = s.Value
			}
			if !good || (len(f.TableData) > 0 && seen[val]) {
				good = false
				break
			}
			seen[val] = true
		}
		if good {
			ok = append(ok, name)
		}
	}
	slices.Sort(ok)
	for _, pref := range designs.TypeAttributes {
		if slices.Contains(ok, pref) {
			return pref
		}
	}
	if len(ok) > 0 {
		return ok[0]
	}
	for _, name := range designs.TypeAttributes {
		if !candidates[name] && !slices.Contains(keys, name) && !slices.ContainsFunc(t.NonKeyAttributes, func(a modelfile.Attribute) bool { return a.AttributeName == name }) {
			return name
		}
	}
	return "_entity"
}

func all[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return len(xs) > 0
}
