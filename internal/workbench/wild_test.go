package workbench_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

// undefined lists the names the generated package designs/<name> uses
// that none of its files declare or import: what the compiler would call
// undefined, found without compiling the SDK.
func undefined(t *testing.T, name string, files map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	declared := map[string]bool{}
	var parsed []*ast.File
	for p, src := range files {
		if path.Dir(p) != "designs/"+name || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for n := range f.Scope.Objects {
			declared[n] = true
		}
	}
	var out []string
	for _, f := range parsed {
		imported := map[string]bool{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			n := path.Base(p)
			if im.Name != nil {
				n = im.Name.Name
			}
			imported[n] = true
		}
		for _, id := range f.Unresolved {
			if !declared[id.Name] && !imported[id.Name] && gotypes.Universe.Lookup(id.Name) == nil && !slices.Contains(out, id.Name) {
				out = append(out, fset.Position(id.Pos()).Filename+": "+id.Name)
			}
		}
	}
	return out
}

// inferFiles parses a model, infers its first table as design name and
// renders its files, failing the test on any error.
func inferFiles(t *testing.T, name, model string) map[string]string {
	t.Helper()
	m, err := modelfile.Parse([]byte(model))
	if err != nil {
		t.Fatal(err)
	}
	return render(t, name, m)
}

// A key whose every sample holds one constant without a separator is
// checked whole by the decoder: there is nothing to split, so the file
// does not need the strings package.
func TestGeneratedCodeOfAConstantKeyCompiles(t *testing.T) {
	files := inferFiles(t, "single", `{"ModelName": "Single", "DataModel": [{"TableName": "single",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "TableData": [{"PK": {"S": "config"}, "SK": {"S": "a1"}}, {"PK": {"S": "config"}, "SK": {"S": "b2"}}]}]}`)
	if bad := undefined(t, "single", files); len(bad) > 0 {
		t.Errorf("the generated package uses undefined names %q:\n%s", bad, files["designs/single/entities.go"])
	}
}

// An item that holds "" for an index's keys (Workbench's way to leave it
// out of the index) imports without them, with a note: DynamoDB refuses an
// empty key, and the pattern of that index gets no "" partition.
func TestEmptyIndexKeysAreLeftOutWithANote(t *testing.T) {
	d := shapetest.Infer(t, "tasks", `{"ModelName": "Tasks", "DataModel": [{"TableName": "tasks",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "GlobalSecondaryIndexes": [{"IndexName": "ByOwner",
	    "KeyAttributes": {"PartitionKey": {"AttributeName": "Owner", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
	  "TableData": [
	    {"PK": {"S": "TASK#1"}, "SK": {"S": "TASK#1"}, "Owner": {"S": "ann"}},
	    {"PK": {"S": "TASK#2"}, "SK": {"S": "TASK#2"}, "Owner": {"S": ""}},
	    {"PK": {"S": "TASK#3"}, "SK": {"S": "TASK#3"}, "Owner": {"S": "bob"}}]}]}`)
	for _, e := range d.Entities {
		for _, it := range e.Samples {
			if s, ok := it["Owner"].(*types.AttributeValueMemberS); ok && s.Value == "" {
				t.Errorf("sample %v keeps Owner \"\", which DynamoDB refuses as an index key", it)
			}
		}
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "Owner from 1") }) {
		t.Errorf("notes %q, want one saying Owner was left out of 1 sample", d.Notes)
	}
}

// A table key of empty text is refused: DynamoDB would refuse the item.
func TestEmptyTableKeyIsRefused(t *testing.T) {
	_, err := modelfile.Parse([]byte(`{"ModelName": "E", "DataModel": [{"TableName": "e",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
	  "TableData": [{"PK": {"S": ""}}]}]}`))
	if err == nil || !strings.Contains(err.Error(), "TableData[0].PK: is empty text") {
		t.Errorf("Parse = %v, want the empty PK refused by its path", err)
	}
}

// sparse is a model whose open orders alone carry the ByStatus keys, and
// whose ByArchive index no item carries.
const sparse = `{"ModelName": "Sparse", "DataModel": [{"TableName": "orders",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "GlobalSecondaryIndexes": [
    {"IndexName": "ByStatus", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"},
      "SortKey": {"AttributeName": "GSI1SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "ByArchive", "KeyAttributes": {"PartitionKey": {"AttributeName": "Archived", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
  "TableData": [
    {"PK": {"S": "ORDER#1"}, "SK": {"S": "ORDER#1"}, "GSI1PK": {"S": "STATUS#open"}, "GSI1SK": {"S": "ORDER#1"}},
    {"PK": {"S": "ORDER#2"}, "SK": {"S": "ORDER#2"}},
    {"PK": {"S": "ORDER#3"}, "SK": {"S": "ORDER#3"}, "GSI1PK": {"S": "STATUS#held"}, "GSI1SK": {"S": "ORDER#3"}}]}]}`

// Every index gets a pattern or a note saying why not: a sparse index
// (only some items carry its keys) is queried like any other, its items
// say they are in it, and seeded copies vary its key as the table's.
func TestSparseIndexGetsAPatternAndAnEmptyOneANote(t *testing.T) {
	d := shapetest.Infer(t, "sparse", sparse)
	var q *shape.Pattern
	for _, p := range d.Patterns {
		if p.Index == "ByStatus" {
			q = p
		}
	}
	if q == nil {
		t.Fatalf("no pattern on ByStatus among %d patterns", len(d.Patterns))
	}
	if got := q.Key.Layout(d.Sep); got != "STATUS#<GSI1PK>" && !strings.HasPrefix(got, "STATUS#<") {
		t.Errorf("ByStatus's partition key laid out %s, want STATUS#<...>", got)
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "index ByArchive has no pattern") }) {
		t.Errorf("notes %q, want one saying why ByArchive has no pattern", d.Notes)
	}
	files := inferFiles(t, "sparse", sparse)
	if bad := undefined(t, "sparse", files); len(bad) > 0 {
		t.Errorf("undefined names %q", bad)
	}
	specs := files["designs/sparse/patterns_test.go"]
	if !strings.Contains(specs, "returns the 1 sample item of partition STATUS#open") || strings.Contains(specs, `"GSI1PK"`) {
		t.Errorf("the ByStatus specs do not expect the open order alone in its partition:\n%s", specs)
	}
	grown := files["designs/sparse/samples.go"]
	v := q.Key.Segs[len(q.Key.Segs)-1].Var
	if v == nil || !strings.Contains(grown, "v."+v.Go+" = vary(v."+v.Go) {
		t.Errorf("Grown does not vary the index's key part:\n%s", grown)
	}
}

// layouts are the design's key layouts by "Entity Attr".
func layouts(d *shape.Design) map[string]string {
	out := map[string]string{}
	for _, e := range d.Entities {
		for _, k := range e.Keys {
			out[e.Go+" "+k.Attr] = k.Layout(d.Sep)
		}
	}
	return out
}

// Key layouts as designers write them: ':' separators around ISO
// timestamps, values every sample shares that are IDs or names, aliases
// that spell the layout out, and parts that would be named alike.
func TestInferReadsKeyLayoutsAsDesignersWriteThem(t *testing.T) {
	d := shapetest.Infer(t, "wild", `{"ModelName": "Wild", "DataModel": [{"TableName": "wild",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
	  "TableFacets": [
	    {"FacetName": "Event", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
	     "TableData": [
	       {"PK": {"S": "DEVICE:d1"}, "SK": {"S": "EVENT:2024-05-01T10:00:00Z:7"}, "GPK": {"S": "ID:x1:y1"}},
	       {"PK": {"S": "DEVICE:d2"}, "SK": {"S": "EVENT:2024-05-02T11:30:00Z:8"}, "GPK": {"S": "ID:x2:y2"}}]},
	    {"FacetName": "Booking", "KeyAttributeAlias": {"PartitionKeyAlias": "CustomerName", "SortKeyAlias": "SK"},
	     "TableData": [
	       {"PK": {"S": "Smith, Jon"}, "SK": {"S": "BOOKING:2024-06-01"}},
	       {"PK": {"S": "Smith, Jon"}, "SK": {"S": "BOOKING:2024-06-02"}}]},
	    {"FacetName": "Item", "KeyAttributeAlias": {"PartitionKeyAlias": "ITEMS:ItemID", "SortKeyAlias": "SK"},
	     "TableData": [{"PK": {"S": "ITEMS:widget"}, "SK": {"S": "META"}}]},
	    {"FacetName": "Guest", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
	     "TableData": [
	       {"PK": {"S": "GUEST:Ann Lee"}, "SK": {"S": "ORDER:5"}, "name": {"S": "Ann Lee"}},
	       {"PK": {"S": "GUEST:Ann Lee"}, "SK": {"S": "ORDER:6"}, "name": {"S": "Ann Lee"}}]}]}]}`)
	if d.Sep != ":" {
		t.Fatalf("separator %q, want :", d.Sep)
	}
	got := layouts(d)
	for key, want := range map[string]string{
		"Event SK":   "EVENT:<EventTime>:<EventID>", // the timestamp is one part
		"Event GPK":  "ID:<Id>:<GPKId>",
		"Booking PK": "<CustomerName>", // the alias names it: not a constant
		"Item PK":    "ITEMS:<ItemID>", // the alias spells the layout out
		"Guest PK":   "GUEST:<Name>",   // an attribute holds the shared value
	} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q", key, got[key], want)
		}
	}
	files, err := workbench.Files(d, "Wild")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for _, f := range files {
		byPath[f.Path] = string(f.Content)
	}
	if bad := undefined(t, "wild", byPath); len(bad) > 0 {
		t.Errorf("undefined names %q", bad)
	}
	for key, layout := range got {
		if strings.Contains(layout, "IDID") || strings.Contains(layout, "IdID") {
			t.Errorf("%s = %q: a part named ID twice", key, layout)
		}
	}
}

// facetNames are the design's entities by their facet names.
func facetNames(d *shape.Design) []string {
	var out []string
	for _, e := range d.Entities {
		out = append(out, e.Facet)
	}
	return out
}

// Without facets or a type attribute, item kinds are told apart by the
// words of their sort keys and partition key suffixes, and named after
// those words rather than a one-letter tag.
func TestInferSplitsItemKindsByKeyLayouts(t *testing.T) {
	d := shapetest.Infer(t, "social", `{"ModelName": "Social", "DataModel": [{"TableName": "social",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}, "SortKey": {"AttributeName": "sk", "AttributeType": "S"}},
	  "TableData": [
	    {"pk": {"S": "u#1"}, "sk": {"S": "metadata"}, "name": {"S": "ann"}},
	    {"pk": {"S": "u#2"}, "sk": {"S": "metadata"}, "name": {"S": "bob"}},
	    {"pk": {"S": "u#1"}, "sk": {"S": "comm#2024-05-01#c1"}, "text": {"S": "hi"}},
	    {"pk": {"S": "u#1"}, "sk": {"S": "comm#2024-05-02#c2"}, "text": {"S": "yo"}},
	    {"pk": {"S": "u#1#follower"}, "sk": {"S": "u#2"}},
	    {"pk": {"S": "u#2#post"}, "sk": {"S": "p#9"}}]}]}`)
	if got, want := facetNames(d), []string{"metadata", "comm", "follower", "post"}; !slices.Equal(got, want) {
		t.Errorf("entities %q, want %q", got, want)
	}
}

// A model of keys, indexes and facets but no items is imported on sample
// items the import makes, laid out as the facets' aliases spell them, so
// every index still gets its pattern and the specs exact items.
func TestAModelWithoutSamplesImportsOnItsOwn(t *testing.T) {
	model := `{"ModelName": "Bare", "DataModel": [{"TableName": "bare",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "NonKeyAttributes": [{"AttributeName": "Title", "AttributeType": "S"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}],
	  "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
	  "BillingMode": "PROVISIONED", "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
	  "TableFacets": [
	    {"FacetName": "Task", "KeyAttributeAlias": {"PartitionKeyAlias": "TASK#TaskID", "SortKeyAlias": "DETAILS"}, "NonKeyAttributes": ["Title"]},
	    {"FacetName": "Item", "KeyAttributeAlias": {"PartitionKeyAlias": "ITEMS#ItemID", "SortKeyAlias": "SK"}}]}]}`
	d := shapetest.Infer(t, "bare", model)
	got := layouts(d)
	for key, want := range map[string]string{"Task PK": "TASK#<TaskID>", "Task SK": "DETAILS", "Item PK": "ITEMS#<ItemID>"} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q (all: %v)", key, got[key], want, got)
		}
	}
	if !slices.ContainsFunc(d.Patterns, func(p *shape.Pattern) bool { return p.Index == "GSI1" }) {
		t.Errorf("no pattern on GSI1; notes %q", d.Notes)
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "no sample items: the import made") }) {
		t.Errorf("notes %q, want one saying the samples were made", d.Notes)
	}
	if d.Schema.Billing != "PROVISIONED" || d.Schema.RCU != 5 {
		t.Errorf("billing %q %d, want the model's PROVISIONED 5", d.Schema.Billing, d.Schema.RCU)
	}
	files := inferFiles(t, "bare", model)
	if bad := undefined(t, "bare", files); len(bad) > 0 {
		t.Errorf("undefined names %q", bad)
	}
	if !strings.Contains(files["designs/bare/samples.go"], `Task{TaskID: "taskid-1"`) {
		t.Errorf("samples.go does not hold the made task:\n%s", files["designs/bare/samples.go"])
	}
}

// Refusals as gentle as they can be: a blank row is skipped with a note,
// a bad value in one table of several refuses that table alone, and maps
// written without types, or wrapped twice, are named as such.
func TestParseSkipsBlankRowsAndRefusesOneBadTableOnly(t *testing.T) {
	table := func(name, items string) string {
		return `{"TableName": "` + name + `", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}, "TableData": [` + items + `]}`
	}
	m, err := modelfile.Parse([]byte(`{"ModelName": "Two", "DataModel": [` +
		table("good", `{"PK": {"S": "a"}}, {}, {"PK": {"S": "b"}}`) + `, ` +
		table("bad", `{"PK": {"S": "a"}, "n": {"N": "ten"}}`) + `]}`))
	if err != nil {
		t.Fatalf("Parse = %v, want the good table imported", err)
	}
	if len(m.DataModel) != 1 || m.DataModel[0].TableName != "good" || len(m.DataModel[0].Samples()) != 2 {
		t.Fatalf("tables %+v, want good alone with its 2 items", m.DataModel)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], `table "bad" not imported`) || !strings.Contains(m.Notes[0], ".n.N") {
		t.Errorf("model notes %q, want one naming table bad and its value", m.Notes)
	}
	d, err := shape.Infer("good", m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "TableData[1]: a blank row") }) {
		t.Errorf("notes %q, want the blank row noted", d.Notes)
	}
	for item, want := range map[string]string{
		`{"PK": {"S": "a"}, "m": {"M": {"M": {"x": {"S": "y"}}}}}`:    "a map wrapped twice",
		`{"PK": {"S": "a"}, "m": {"x": {"S": "y"}, "z": {"S": "w"}}}`: "an untyped map",
		`{"PK": {"S": "a"}, "m": {"M": {"x": "y"}}}`:                  "want one type member",
		`{"PK": {"S": "a"}, "m": {"name": "y"}}`:                      "an untyped value or map",
	} {
		_, err := modelfile.Parse([]byte(`{"ModelName": "One", "DataModel": [` + table("one", item) + `]}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse of %s = %v, want %q", item, err, want)
		}
	}
}

// The DynamoDB MCP server's dynamodb_data_model.json is read: its tables,
// their indexes and billing, its items; an access pattern whose command
// does not translate (a Query without its key condition) is named in a
// note that says it was not generated, and why.
func TestImportReadsAnMCPDataModel(t *testing.T) {
	d := shapetest.Infer(t, "shop", `{"tables": [{"TableName": "Shop",
	    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "email", "AttributeType": "S"}],
	    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	    "GlobalSecondaryIndexes": [{"IndexName": "ByEmail", "KeySchema": [{"AttributeName": "email", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}],
	    "BillingMode": "PAY_PER_REQUEST"}],
	  "items": {"Shop": [
	    {"PutRequest": {"Item": {"pk": {"S": "USER#1"}, "sk": {"S": "PROFILE"}, "email": {"S": "a@x"}}}},
	    {"PutRequest": {"Item": {"pk": {"S": "USER#2"}, "sk": {"S": "PROFILE"}, "email": {"S": "b@x"}}}}]},
	  "access_patterns": [{"pattern": "1", "description": "find user by email", "table": "Shop", "index": "ByEmail",
	    "dynamodb_operation": "Query", "implementation": "aws dynamodb query --table-name Shop"}]}`)
	if d.Schema.PK != "pk" || d.Schema.SK != "sk" || len(d.Schema.GSIs) != 1 || len(d.Entities[0].Samples) != 2 {
		t.Errorf("schema %+v with %d samples, want pk/sk, ByEmail and the 2 items", d.Schema, len(d.Entities[0].Samples))
	}
	if !slices.ContainsFunc(d.Patterns, func(p *shape.Pattern) bool { return p.Index == "ByEmail" }) {
		t.Error("no pattern on ByEmail")
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool {
		return strings.Contains(n, "access pattern 1 (find user by email) not generated: a Query without --key-condition-expression")
	}) {
		t.Errorf("notes %q, want access pattern 1 listed as not generated", d.Notes)
	}
}
