package shape_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

func TestInferReadsTheGalleryKeyLayouts(t *testing.T) {
	d := shapetest.Infer(t, "gallery", gallery(t))
	got := map[string]string{}
	for _, e := range d.Entities {
		for _, k := range e.Keys {
			got[e.Go+" "+k.Attr] = k.Layout(d.Sep)
		}
	}
	for key, want := range map[string]string{
		"User PK":        "USER#<UserID>",               // a constant tag, then the part
		"User SK":        "PROFILE",                     // shared by every sample: a constant
		"User GSI1PK":    "EMAIL#<Email>",               // the part repeats the Email attribute
		"Photo SK":       "PHOTO#<CreatedAt>#<PhotoID>", // composite: an attribute, then an ID
		"Photo GSI2-SK":  "<CreatedAt>#<PhotoID>",       // untagged parts found again by their values
		"Comment GSI1PK": "USER#<UserID>",
		"Like SK":        "LIKE#<LikeID>",
		"Like GSI1PK":    "USER#<LikeID>", // the same values as the SK's part: the same part
	} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q", key, got[key], want)
		}
	}
	if d.Schema.TypeAttribute != "EntityType" || d.Sep != "#" {
		t.Errorf("type attribute %q, separator %q; want EntityType and #", d.Schema.TypeAttribute, d.Sep)
	}
	var likes *shape.Field
	for _, e := range d.Entities {
		for _, f := range e.Fields {
			if f.Attr == "#likes" {
				likes = f
			}
		}
	}
	if likes == nil {
		t.Fatal("no entity has a field for #likes")
	}
	if likes.Go != "Likes" || likes.Type != "N" {
		t.Errorf("#likes is field %s of type %s, want Likes, N", likes.Go, likes.Type)
	}
}

// An inverted index (its partition key is the table's sort key) is held by
// every entity that has both keys: it gets its query like any other index.
func TestInferQueriesAnInvertedIndex(t *testing.T) {
	d := shapetest.Infer(t, "follows", `{"ModelName": "Follows", "DataModel": [{"TableName": "follows",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "GlobalSecondaryIndexes": [{"IndexName": "Inverted",
	    "KeyAttributes": {"PartitionKey": {"AttributeName": "SK", "AttributeType": "S"}, "SortKey": {"AttributeName": "PK", "AttributeType": "S"}},
	    "Projection": {"ProjectionType": "ALL"}}],
	  "TableData": [
	    {"PK": {"S": "USER#ann"}, "SK": {"S": "FOLLOWS#bob"}},
	    {"PK": {"S": "USER#cat"}, "SK": {"S": "FOLLOWS#bob"}},
	    {"PK": {"S": "USER#ann"}, "SK": {"S": "FOLLOWS#cat"}}]}]}`)
	var onIndex []*shape.Pattern
	for _, p := range d.Patterns {
		if p.Index == "Inverted" {
			onIndex = append(onIndex, p)
		}
	}
	if len(onIndex) != 1 {
		t.Fatalf("%d patterns on Inverted, want one query", len(onIndex))
	}
	q := onIndex[0]
	if q.Key == nil || q.Key.Attr != "SK" || len(q.Group) != len(d.Entities) {
		t.Errorf("the Inverted query is by %+v over %d of %d entities; want by SK, the index's partition key, over every entity", q.Key, len(q.Group), len(d.Entities))
	}
}

// A binary key, of the table or of an index, is refused by name: the
// generated code would write it as text, which DynamoDB refuses.
func TestInferRefusesBinaryKeys(t *testing.T) {
	for _, tc := range []struct{ name, table, index, item string }{
		{"table key", `"B"`, `"S"`, `{"PK": {"B": "AQI="}, "G": {"S": "x"}}`},
		{"index key", `"S"`, `"B"`, `{"PK": {"S": "a"}, "G": {"B": "AQI="}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := modelfile.Parse([]byte(`{"ModelName": "Blobs", "DataModel": [{"TableName": "blobs",
			  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": ` + tc.table + `}},
			  "GlobalSecondaryIndexes": [{"IndexName": "ByG",
			    "KeyAttributes": {"PartitionKey": {"AttributeName": "G", "AttributeType": ` + tc.index + `}},
			    "Projection": {"ProjectionType": "ALL"}}],
			  "TableData": [` + tc.item + `]}]}`))
			if err != nil {
				t.Fatal(err)
			}
			_, err = shape.Infer("blobs", m.DataModel[0])
			want := map[bool]string{true: "key attribute PK is binary", false: "key attribute G is binary"}[tc.table == `"B"`]
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Infer = %v, want an error saying %q", err, want)
			}
		})
	}
}

// A segment that holds the same values as an earlier one is that
// variable again, in the first key laid out as in the later ones.
func TestInferBindsRepeatedSegmentsToOneVariable(t *testing.T) {
	d := shapetest.Infer(t, "pairs", `{"ModelName": "Pairs", "DataModel": [{"TableName": "pairs",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "TableData": [{"PK": {"S": "1#1"}, "SK": {"S": "1#1"}}, {"PK": {"S": "2#2"}, "SK": {"S": "2#2"}}]}]}`)
	e := d.Entities[0]
	for _, k := range e.Keys {
		if got := k.Layout(d.Sep); got != "<PK>#<PK>" {
			t.Errorf("%s is laid out %s, want <PK>#<PK>: both segments hold the same values", k.Attr, got)
		}
	}
}

// The separator is read from the keys alone, and the ':' of a time of day
// is not one: ISO timestamps in sort keys and other attributes would
// otherwise outnumber the '#' between the key's parts.
func TestInferSeparatorIgnoresTimesAndOtherAttributes(t *testing.T) {
	d := shapetest.Infer(t, "orders", `{"ModelName": "Orders", "DataModel": [{"TableName": "orders",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "TableData": [
	    {"PK": {"S": "USER#ann"}, "SK": {"S": "ORDER#2024-05-01T10:00:00"}, "note": {"S": "a:b:c:d"}, "at": {"S": "2024-05-01T10:00:00"}},
	    {"PK": {"S": "USER#bob"}, "SK": {"S": "ORDER#2024-05-02T11:30:00"}, "note": {"S": "e:f:g:h"}, "at": {"S": "2024-05-02T11:30:00"}}]}]}`)
	if d.Sep != "#" {
		t.Fatalf("separator %q, want #", d.Sep)
	}
	for _, k := range d.Entities[0].Keys {
		if got, want := k.Layout(d.Sep), map[string]string{"PK": "USER#<UserID>", "SK": "ORDER#<At>"}[k.Attr]; got != want {
			t.Errorf("%s is laid out %s, want %s", k.Attr, got, want)
		}
	}

	// Separators are counted, not the keys holding one: a key of four
	// parts outweighs two keys of one '_' each.
	if d := shapetest.Infer(t, "tenants", `{"ModelName": "Tenants", "DataModel": [{"TableName": "tenants",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "TableData": [
	    {"PK": {"S": "TENANT#t1#USER#u1"}, "SK": {"S": "PROFILE_V2"}, "state": {"S": "STATUS_ACTIVE"}},
	    {"PK": {"S": "TENANT#t2#USER#u2"}, "SK": {"S": "PROFILE_V2"}, "state": {"S": "STATUS_ACTIVE"}}]}]}`); d.Sep != "#" {
		t.Fatalf("separator %q, want #", d.Sep)
	}
}

// The type attribute is never a key, though a constant sort key per facet
// looks like one, and with one facet a constant attribute is not one
// unless its name says so: the import adds EntityType instead.
func TestInferTypeAttributeIsNeverAKey(t *testing.T) {
	for _, tc := range []struct{ name, facets string }{
		{"a sort key constant per facet", `
		  {"FacetName": "customer", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
		   "TableData": [{"PK": {"S": "C#1"}, "SK": {"S": "PROFILE"}, "country": {"S": "US"}}]},
		  {"FacetName": "order", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
		   "TableData": [{"PK": {"S": "C#1"}, "SK": {"S": "ORDER#1"}, "country": {"S": "US"}}]}`},
		{"one facet with a constant attribute", `
		  {"FacetName": "customer", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
		   "TableData": [{"PK": {"S": "C#1"}, "SK": {"S": "PROFILE"}, "country": {"S": "US"}},
		                 {"PK": {"S": "C#2"}, "SK": {"S": "PROFILE"}, "country": {"S": "US"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := shapetest.Infer(t, "shop", `{"ModelName": "Shop", "DataModel": [{"TableName": "shop",
			  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
			  "NonKeyAttributes": [{"AttributeName": "country", "AttributeType": "S"}],
			  "TableFacets": [`+tc.facets+`]}]}`)
			if d.Schema.TypeAttribute != "EntityType" {
				t.Errorf("type attribute %q, want EntityType, added", d.Schema.TypeAttribute)
			}
		})
	}
}

// An index keyed on an attribute named as a type attribute lists the
// items of a type: that attribute is the type attribute, not a key to keep
// it from.
func TestInferTakesATypeAttributeThatKeysAnIndex(t *testing.T) {
	d := shapetest.Infer(t, "shop", `{"ModelName": "Shop", "DataModel": [{"TableName": "shop",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "NonKeyAttributes": [{"AttributeName": "EntityType", "AttributeType": "S"}],
	  "GlobalSecondaryIndexes": [{"IndexName": "ByType", "KeyAttributes": {"PartitionKey": {"AttributeName": "EntityType", "AttributeType": "S"},
	    "SortKey": {"AttributeName": "SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
	  "TableFacets": [
	    {"FacetName": "customer", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["EntityType"],
	     "TableData": [{"PK": {"S": "C#1"}, "SK": {"S": "PROFILE"}, "EntityType": {"S": "customer"}}]},
	    {"FacetName": "order", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}, "NonKeyAttributes": ["EntityType"],
	     "TableData": [{"PK": {"S": "C#1"}, "SK": {"S": "ORDER#1"}, "EntityType": {"S": "order"}}]}]}]}`)
	if d.Schema.TypeAttribute != "EntityType" {
		t.Errorf("type attribute %q, want EntityType, the model's", d.Schema.TypeAttribute)
	}
}

// Names the model may use that the generated Go cannot: an attribute
// "item" beside the entities' Item method, two index names that make one
// Go constant.
func TestInferKeepsGeneratedNamesApart(t *testing.T) {
	model := func(indexes, attr string) modelfile.Table {
		m, err := modelfile.Parse([]byte(`{"ModelName": "Shop", "DataModel": [{"TableName": "shop",
		  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
		  "GlobalSecondaryIndexes": [` + indexes + `],
		  "TableData": [{"PK": {"S": "C#1"}, "G": {"S": "g"}, "` + attr + `": {"S": "x"}}]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return m.DataModel[0]
	}
	index := func(name string) string {
		return `{"IndexName": "` + name + `", "KeyAttributes": {"PartitionKey": {"AttributeName": "G", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}`
	}
	t.Run("an attribute named item", func(t *testing.T) {
		d, err := shape.Infer("shop", model(index("ByG"), "item"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range d.Entities[0].Fields {
			if f.Attr == "item" && f.Go == "Item" {
				t.Errorf("attribute item is field Item, beside the method Item")
			}
		}
	})
	t.Run("two indexes of one Go name", func(t *testing.T) {
		_, err := shape.Infer("shop", model(index("by-g")+","+index("byG"), "name"))
		if err == nil || !strings.Contains(err.Error(), "both become the Go constant IndexByG") {
			t.Errorf("Infer = %v, want a refusal naming both indexes", err)
		}
	})
}

// Table-level samples beside facets are not imported, and a note says so.
func TestInferNotesTableSamplesOutsideTheFacets(t *testing.T) {
	m, err := modelfile.Parse(gallery(t))
	if err != nil {
		t.Fatal(err)
	}
	tb := m.DataModel[0]
	tb.TableData = tb.TableFacets[0].TableData[:1]
	d, err := shape.Infer("gallery", tb)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "the table's own sample items (1) belong to no facet") }) {
		t.Errorf("notes %q, want one about the table's own samples", d.Notes)
	}
}

// gallery is the model make walkthrough imports.
func gallery(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../../docs/models/gallery.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
