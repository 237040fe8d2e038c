package modelfile

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// PerFacet is how many sample items Export keeps of each entity type.
const PerFacet = 3

// Export writes design d as a Workbench model: its table (named as the
// model it came from named it), indexes and billing, and a facet per
// entity type, named as its model's facet was, holding the first PerFacet
// of items of that type (items: the design's fixtures, seeded in order).
// What Workbench has no field for (the type attribute) is in the model's
// metadata. A GSI keyed by several attributes is refused (ErrNoWorkbenchKey):
// Workbench's model keys an index by one attribute per side.
func Export(d designs.Design, items []map[string]types.AttributeValue, now time.Time) (ModelFile, error) {
	s := d.Schema
	for _, ix := range s.GSIs {
		if len(ix.PKs) > 0 || len(ix.SKs) > 0 {
			return ModelFile{}, fmt.Errorf("%w: design %s: GSI %s is keyed by %s: a NoSQL Workbench model keys an index by one partition key attribute and one sort key attribute, so it cannot hold this index; export it as the DynamoDB MCP server's model instead (FORMAT=mcp, -format mcp), which can",
				ErrNoWorkbenchKey, d.Name, ix.Name, keyParts(ix.PartitionAttrs(), ix.SortAttrs()))
		}
	}
	t := Table{
		TableName:     cmp.Or(d.Table, d.Name),
		KeyAttributes: keyOf(s, s.PK, s.SK),
		DataAccess:    map[string]any{"MySql": map[string]any{}},
	}
	if s.Billing == types.BillingModeProvisioned {
		t.BillingMode = "PROVISIONED"
		t.ProvisionedCapacity = &CapacitySetting{}
		t.ProvisionedCapacity.ProvisionedThroughput.ReadCapacityUnits = s.RCU
		t.ProvisionedCapacity.ProvisionedThroughput.WriteCapacityUnits = s.WCU
	} else {
		t.BillingMode = "PAY_PER_REQUEST"
	}
	for _, ix := range s.GSIs {
		t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, Index{IndexName: ix.Name, KeyAttributes: keyOf(s, ix.PK, ix.SK), Projection: projectionOf(ix)})
	}
	for _, ix := range s.LSIs {
		t.LocalSecondaryIndexes = append(t.LocalSecondaryIndexes, Index{IndexName: ix.Name, KeyAttributes: keyOf(s, s.PK, ix.SK), Projection: projectionOf(ix)})
	}
	items = slices.Clone(items)
	slices.SortFunc(items, func(a, b map[string]types.AttributeValue) int {
		if c := ddbitem.CompareKey(a[s.PK], b[s.PK]); c != 0 {
			return c
		}
		return ddbitem.CompareKey(a[s.SK], b[s.SK])
	})
	keys := map[string]bool{s.PK: true, s.SK: true}
	declared := map[string]bool{}
	facet := map[string]int{}
	for _, it := range items {
		name := strings.TrimSuffix(s.ItemType(it, s.PK), "#")
		name = cmp.Or(d.Facets[name], name)
		i, ok := facet[name]
		if !ok {
			i = len(t.TableFacets)
			facet[name] = i
			alias := KeyAlias{PartitionKeyAlias: s.PK}
			if s.SK != "" {
				alias.SortKeyAlias = s.SK
			}
			t.TableFacets = append(t.TableFacets, Facet{FacetName: name, KeyAttributeAlias: alias, DataAccess: map[string]any{"MySql": map[string]any{}}})
		}
		f := &t.TableFacets[i]
		if len(f.TableData) >= PerFacet {
			continue
		}
		f.TableData = append(f.TableData, Item{Attrs: it})
		for _, n := range slices.Sorted(maps.Keys(it)) {
			if keys[n] {
				continue
			}
			if !slices.Contains(f.NonKeyAttributes, n) {
				f.NonKeyAttributes = append(f.NonKeyAttributes, n)
			}
			if !declared[n] {
				declared[n] = true
				t.NonKeyAttributes = append(t.NonKeyAttributes, Attribute{AttributeName: n, AttributeType: ddbitem.TypeName(it[n])})
			}
		}
	}
	return ModelFile{
		ModelName: d.Name,
		ModelMetadata: &Metadata{
			Author: "ddbharness export-model", Description: d.Summary, AWSService: "Amazon DynamoDB", Version: "3.0",
			DateCreated: now.Format("Jan 02, 2006, 03:04 PM"), DateLastModified: now.Format("Jan 02, 2006, 03:04 PM"),
			Harness: &HarnessMetadata{Design: d.Name, TypeAttribute: s.TypeAttribute},
		},
		DataModel: []Table{t},
	}, nil
}

// ErrNoWorkbenchKey is Export's refusal of a design with a GSI keyed by
// several attributes, which a NoSQL Workbench model cannot hold.
var ErrNoWorkbenchKey = errors.New("a multi-attribute key has no place in a NoSQL Workbench model")

func keyOf(s designs.Schema, pk, sk string) KeyAttributes {
	attr := func(n string) Attribute {
		t := "S"
		if st, ok := s.Types[n]; ok {
			t = string(st)
		}
		return Attribute{AttributeName: n, AttributeType: t}
	}
	k := KeyAttributes{PartitionKey: attr(pk)}
	if sk != "" {
		a := attr(sk)
		k.SortKey = &a
	}
	return k
}

func projectionOf(ix designs.Index) Projection {
	switch ix.Projection {
	case types.ProjectionTypeKeysOnly:
		return Projection{ProjectionType: "KEYS_ONLY"}
	case types.ProjectionTypeInclude:
		return Projection{ProjectionType: "INCLUDE", NonKeyAttributes: ix.NonKey}
	}
	return Projection{ProjectionType: "ALL"}
}
