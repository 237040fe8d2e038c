package workbench_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// Every design exports to a model whose import gives back its schema: the
// keys and their types, the indexes with their projections, the billing,
// and a type attribute that tells its entities apart.
func TestExportThenImportGivesBackEachDesignsSchema(t *testing.T) {
	for _, d := range all.Designs {
		t.Run(d.Name, func(t *testing.T) {
			items, err := lint.Fixtures(context.Background(), d, 200)
			if err != nil {
				t.Fatal(err)
			}
			model, err := modelfile.Export(d, items, time.Unix(0, 0))
			if multi := slices.ContainsFunc(d.Schema.GSIs, func(ix designs.Index) bool { return len(ix.PKs) > 0 || len(ix.SKs) > 0 }); multi {
				// Workbench's model has no place for a multi-attribute key:
				// the export refuses it by name (the MCP format carries it,
				// TestExportMCPOfEachDesignImportsItsCatalog).
				if !errors.Is(err, modelfile.ErrNoWorkbenchKey) {
					t.Fatalf("Export(%s), whose GSI is keyed by several attributes = %v, want ErrNoWorkbenchKey", d.Name, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(model)
			if err != nil {
				t.Fatal(err)
			}
			m, err := modelfile.Parse(data)
			if err != nil {
				t.Fatalf("Parse(Export(%s)): %v", d.Name, err)
			}
			if len(m.DataModel) != 1 {
				t.Fatalf("Export(%s) has %d tables, want 1", d.Name, len(m.DataModel))
			}
			imported, err := shape.Infer(d.Name, m.DataModel[0])
			if err != nil {
				t.Fatalf("Infer(Export(%s)): %v", d.Name, err)
			}
			if got, want := normal(imported.Schema), normal(d.Schema); !equalSchema(got, want) {
				t.Errorf("the schema came back as\n%+v\nwant\n%+v", got, want)
			}
			for _, f := range m.DataModel[0].TableFacets {
				if n := len(f.TableData); n < 1 || n > modelfile.PerFacet {
					t.Errorf("facet %s has %d sample items, want 1 to %d", f.FacetName, n, modelfile.PerFacet)
				}
			}
			// One entity per item type of the fixtures, named by it, each
			// holding samples of its type only.
			itemType := func(it map[string]types.AttributeValue) string {
				return strings.TrimSuffix(d.Schema.ItemType(it, d.Schema.PK), "#")
			}
			want := map[string]bool{}
			for _, it := range items {
				want[itemType(it)] = true
			}
			got := map[string]bool{}
			for _, e := range imported.Entities {
				got[e.TypeValue] = true
				for _, it := range e.Samples {
					if itemType(it) != e.TypeValue {
						t.Errorf("entity %s holds a sample of type %s", e.TypeValue, itemType(it))
					}
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("imported entities %v, want one per item type %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
			}
			if _, err := workbench.Files(imported, m.ModelName); err != nil {
				t.Errorf("the import of Export(%s) does not render: %v", d.Name, err)
			}
			// The imported design, exported from its own fixtures and
			// imported again, keeps its entities and key layouts.
			if got, want := entityLayouts(reimport(t, imported)), entityLayouts(imported); !maps.Equal(got, want) {
				t.Errorf("a second round trip gives the entities\n%s\nwant\n%s", show(got), show(want))
			}
		})
	}
}

// normal is a schema with defaults spelled out: projections ALL, billing
// on demand; the type attribute is compared apart (equalSchema).
func normal(s designs.Schema) designs.Schema {
	fix := func(ixs []designs.Index) []designs.Index {
		out := slices.Clone(ixs)
		for i := range out {
			if out[i].Projection == "" {
				out[i].Projection = types.ProjectionTypeAll
			}
		}
		return out
	}
	s.GSIs, s.LSIs = fix(s.GSIs), fix(s.LSIs)
	if s.Billing == "" {
		s.Billing = types.BillingModePayPerRequest
	}
	if len(s.Types) == 0 {
		s.Types = nil
	}
	return s
}

// equalSchema compares all but the type attribute, which a design may
// leave to the lint's guess and the import always names.
func equalSchema(a, b designs.Schema) bool {
	if b.TypeAttribute != "" && a.TypeAttribute != b.TypeAttribute {
		return false
	}
	a.TypeAttribute, b.TypeAttribute = "", ""
	return a.PK == b.PK && a.SK == b.SK && a.Billing == b.Billing && a.RCU == b.RCU && a.WCU == b.WCU &&
		equalMap(a.Types, b.Types) && slices.EqualFunc(a.GSIs, b.GSIs, equalIndex) && slices.EqualFunc(a.LSIs, b.LSIs, equalIndex)
}

func equalIndex(a, b designs.Index) bool {
	return a.Name == b.Name && a.PK == b.PK && a.SK == b.SK && a.Projection == b.Projection && slices.Equal(a.NonKey, b.NonKey)
}

func equalMap[V comparable](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A model as Workbench 3 saves one without facets: every item in the
// table's own TableData, plain keys, no type attribute, and members the
// import does not read (SampleDataFormats).
const noFacets = `{"ModelName": "Tickets", "ModelMetadata": {"Version": "3.0"},
  "DataModel": [{"TableName": "tickets",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "queue", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "ticket", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "state", "AttributeType": "S"}],
    "TableFacets": [],
    "GlobalSecondaryIndexes": [{"IndexName": "ByState",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "queue", "AttributeType": "S"},
                        "SortKey": {"AttributeName": "state", "AttributeType": "S"}},
      "Projection": {"ProjectionType": "ALL"}}],
    "TableData": [
      {"queue": {"S": "billing"}, "ticket": {"S": "1"}, "state": {"S": "open"}},
      {"queue": {"S": "billing"}, "ticket": {"S": "2"}, "state": {"S": "closed"}},
      {"queue": {"S": "returns"}, "ticket": {"S": "1"}, "state": {"S": "open"}}],
    "SampleDataFormats": {"state": ["dataTypes", "String"]},
    "BillingMode": "PAY_PER_REQUEST"}]}`

func TestAModelWithoutFacetsIsOneEntity(t *testing.T) {
	m, err := modelfile.Parse([]byte(noFacets))
	if err != nil {
		t.Fatal(err)
	}
	d, err := shape.Infer("tickets", m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != 1 || d.Entities[0].Go != "Tickets" || len(d.Entities[0].Samples) != 3 {
		t.Fatalf("entities %v, want one, Tickets, of the 3 items", d.Entities)
	}
	if d.Schema.TypeAttribute != "EntityType" {
		t.Errorf("type attribute %q, want EntityType added (no attribute tells entities apart)", d.Schema.TypeAttribute)
	}
	var names []string
	for _, p := range d.Patterns {
		names = append(names, p.Name)
	}
	if want := []string{"get tickets", "query by Queue", "query ByState by Queue"}; !slices.Equal(names, want) {
		t.Errorf("patterns %q, want %q", names, want)
	}
	if _, err := workbench.Files(d, m.ModelName); err != nil {
		t.Error(err)
	}
}

// docs/models/readings.json is keyed by numbers, with an inverted index
// that leaves its keys' types to the table's declaration, and samples whose
// other attributes vary: it parses, imports the same files each time, and
// its specs ask for a missing key with a number, since a number key
// refuses other text.

func TestANumberKeyedModelImportsTheSameFilesEachTime(t *testing.T) {
	data, err := os.ReadFile("../../docs/models/readings.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Parse(data)
	if err != nil {
		t.Fatalf("an index key typed by the table's declaration was refused: %v", err)
	}
	first := render(t, "readings", m)
	for range 10 {
		if again := render(t, "readings", m); !equalMap(again, first) {
			t.Fatal("two imports of one model wrote different files")
		}
	}
	specs := first["designs/readings/patterns_test.go"]
	if specs == "" {
		t.Fatalf("no patterns_test.go among %d files", len(first))
	}
	if strings.Contains(specs, `"no-such-key"`) || !strings.Contains(specs, `"43"`) {
		t.Errorf("the specs ask for a missing number key with text, or not with 43 (past every sample's 42):\n%s", specs)
	}
}

// A number key past what a float64 counts in ones (a nanosecond
// timestamp) still gets a missing key no sample has.
func TestMissingNumberKeyIsExactPastFloatPrecision(t *testing.T) {
	m, err := modelfile.Parse([]byte(`{"ModelName": "Clock", "DataModel": [{"TableName": "clock",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "At", "AttributeType": "N"}},
	  "TableData": [{"At": {"N": "1700000000000000000"}}, {"At": {"N": "12.5"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	specs, ok := render(t, "clock", m)["designs/clock/patterns_test.go"]
	if !ok {
		t.Fatal("no designs/clock/patterns_test.go among the files")
	}
	if !strings.Contains(specs, `"1700000000000000001"`) {
		t.Errorf("the missing-key spec does not ask for 1700000000000000001, one past the largest sample:\n%s", specs)
	}
}

// render imports the model's first table as the design name and returns
// the files the import would write, by path.
func render(t *testing.T, name string, m modelfile.ModelFile) map[string]string {
	t.Helper()
	d, err := shape.Infer(name, m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	files, err := workbench.Files(d, m.ModelName)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Content)
	}
	return out
}

// An index that does not project the type attribute returns entries that
// only their key layouts tell apart: the decoders try the layout with
// constant parts in the table's keys (ORDER#<...>) before the one of
// variables alone, which would take the orders too, whatever constants the
// latter has in another index's keys.
func TestGeneratedDecodersTryTheStricterLayoutFirst(t *testing.T) {
	note := func(id string) string {
		return `{"PK": {"S": "` + id + `"}, "SK": {"S": "` + id + `"}, "GSI1PK": {"S": "FEED"}, "GSI1SK": {"S": "` + id + `"},
		  "GSI2PK": {"S": "KIND#NOTE"}, "GSI2SK": {"S": "LIST#ALL#` + id + `"}}`
	}
	index := func(name string) string {
		return `{"IndexName": "` + name + `", "KeyAttributes": {"PartitionKey": {"AttributeName": "` + name + `PK", "AttributeType": "S"},
		  "SortKey": {"AttributeName": "` + name + `SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "KEYS_ONLY"}}`
	}
	m, err := modelfile.Parse([]byte(`{"ModelName": "Mixed", "DataModel": [{"TableName": "mixed",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "NonKeyAttributes": [{"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"},
	    {"AttributeName": "GSI2PK", "AttributeType": "S"}, {"AttributeName": "GSI2SK", "AttributeType": "S"}],
	  "GlobalSecondaryIndexes": [` + index("GSI1") + `, ` + index("GSI2") + `],
	  "TableFacets": [
	    {"FacetName": "note", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"],
	     "TableData": [` + note("n1") + `, ` + note("n2") + `]},
	    {"FacetName": "order", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["GSI1PK", "GSI1SK"],
	     "TableData": [{"PK": {"S": "ORDER#o1"}, "SK": {"S": "ORDER#o1"}, "GSI1PK": {"S": "FEED"}, "GSI1SK": {"S": "ORDER#o1"}}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for path, src := range render(t, "mixed", m) {
		at := strings.Index(src, "var decoders")
		if at < 0 {
			continue
		}
		order, note := strings.Index(src[at:], "decodeAsOrder"), strings.Index(src[at:], "decodeAsNote")
		if order < 0 || note < 0 || order > note {
			t.Fatalf("%s lists its decoders as\n%s\nwant Order's before Note's", path, src[at:at+strings.Index(src[at:], "\n}")])
		}
		return
	}
	t.Fatal("no generated file declares the decoders")
}
