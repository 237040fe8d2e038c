package workbench_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

// A model whose table is named apart from the design, provisioned with
// throughput and no BillingMode (as older Workbench saves are), whose
// facets are named apart from their type values, and whose one customer
// and one order hold the ID "1" by chance: two parts that copies must keep
// apart.
const coincidence = `{"ModelName": "Orders", "DataModel": [{"TableName": "Orders-Table",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "NonKeyAttributes": [{"AttributeName": "EntityType", "AttributeType": "S"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"},
    "SortKey": {"AttributeName": "GSI1SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
  "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3}},
  "TableFacets": [
    {"FacetName": "Customer Account", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["EntityType"],
     "TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}, "EntityType": {"S": "CUSTOMER"}}]},
    {"FacetName": "Purchase Order", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["EntityType", "GSI1PK", "GSI1SK"],
     "TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#1"}, "GSI1PK": {"S": "ORDER#1"}, "GSI1SK": {"S": "CUST#1"}, "EntityType": {"S": "ORDER"}}]}]}]}`

// An imported design exported and imported again has its table's name,
// its billing, its entities by their facet names, each with the key
// layouts and indexes it had: the export reads the design's fixtures (its
// samples, then copies of them as the generated Grown makes them).
func TestExportThenImportGivesBackTheKeyLayouts(t *testing.T) {
	models := map[string]string{"orders": coincidence}
	for _, name := range []string{"gallery", "readings"} {
		b, err := os.ReadFile("../../docs/models/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		models[name] = string(b)
	}
	for name, model := range models {
		t.Run(name, func(t *testing.T) {
			first := shapetest.Infer(t, name, model)
			if name == "orders" && (first.Schema.Billing != types.BillingModeProvisioned || first.Schema.RCU != 7 || first.Schema.WCU != 3) {
				t.Errorf("billing %q %d/%d, want PROVISIONED 7/3: the model gives throughput and no BillingMode", first.Schema.Billing, first.Schema.RCU, first.Schema.WCU)
			}
			again := reimport(t, first)
			if got, want := again.Table.TableName, first.Table.TableName; got != want {
				t.Errorf("the table came back as %q, want %q", got, want)
			}
			if got, want := normal(again.Schema), normal(first.Schema); !equalSchema(got, want) {
				t.Errorf("the schema came back as\n%+v\nwant\n%+v", got, want)
			}
			if got, want := entityLayouts(again), entityLayouts(first); !maps.Equal(got, want) {
				t.Errorf("the entities came back as\n%s\nwant\n%s", show(got), show(want))
			}
		})
	}
}

// reimport exports d from its samples and three copies of each, and
// imports the export.
func reimport(t *testing.T, d *shape.Design) *shape.Design {
	t.Helper()
	var items []map[string]types.AttributeValue
	keys := ddbitem.Schema{PK: d.Schema.PK, SK: d.Schema.SK}
	seen := map[string]bool{} // a copy of a key of constants is the sample again: the table keeps one
	for n := range 4 {        // copy 0 is the samples
		for _, e := range d.Entities {
			for _, it := range e.Samples {
				item := d.Grow(e, it, n, fixtures.Vary)
				if id, _ := keys.KeyID(item); !seen[id] {
					seen[id] = true
					items = append(items, item)
				}
			}
		}
	}
	m0, err := modelfile.Export(d.Catalog(), items, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(m0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Parse(data)
	if err != nil {
		t.Fatalf("Parse(Export(%s)): %v", d.Name, err)
	}
	again, err := shape.Infer(d.Name, m.DataModel[0])
	if err != nil {
		t.Fatalf("Infer(Export(%s)): %v", d.Name, err)
	}
	return again
}

// entityLayouts is each entity's facet name and type value, and each key it
// carries with its index and layout, as one line per entity.
func entityLayouts(d *shape.Design) map[string]string {
	out := map[string]string{}
	for _, e := range d.Entities {
		var keys []string
		for _, k := range e.Keys {
			keys = append(keys, fmt.Sprintf("%s(%s)=%s", k.Attr, k.Index, k.Layout(d.Sep)))
		}
		slices.Sort(keys)
		out[e.Facet] = e.TypeValue + ": " + strings.Join(keys, " ")
	}
	return out
}

func show(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "  %s %s\n", k, m[k])
	}
	return b.String()
}
