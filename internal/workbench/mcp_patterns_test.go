package workbench_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

// testdata/mcp_shop.json is an MCP data model of our own: a user's
// profile and orders on one table with a GSI by status, and an access
// pattern of every operation the MCP server names (a filter, a
// projection, a limit and a backward query among them), one whose
// condition fails on the samples, one an external service serves and one
// that chains two commands.
func mcpShop(t *testing.T) *shape.Design {
	t.Helper()
	return inferred(t, "mcp_shop.json", "mcpshop", nil)
}

// Each access pattern of the model is in the catalog under its own ID,
// name and operation: a generated function where its command translates,
// an uncovered row saying why where it does not.
func TestMCPAccessPatternsAreCataloguedUnderTheirIDs(t *testing.T) {
	d := mcpShop(t)
	want := map[designs.PatternID]designs.Operation{"1": designs.GetItem, "2": designs.Query, "3": designs.Query, "4": designs.Scan,
		"5": designs.PutItem, "6": designs.UpdateItem, "7": designs.PutItem, "8": designs.DeleteItem, "9": designs.BatchGetItem,
		"10": designs.BatchWriteItem, "11": designs.TransactWriteItems, "12": designs.TransactGetItems, "13": "none", "14": designs.GetItem}
	got := map[designs.PatternID]*shape.Pattern{}
	for _, p := range d.Patterns {
		if _, ok := want[p.ID]; ok {
			got[p.ID] = p
		}
	}
	for id, op := range want {
		p := got[id]
		switch {
		case p == nil:
			t.Errorf("pattern %s is not in the catalog", id)
		case p.Op != op:
			t.Errorf("pattern %s is a %s, want %s", id, p.Op, op)
		case (id == "13" || id == "14") != (p.Why != ""):
			t.Errorf("pattern %s: generated %t (why not: %q)", id, p.Why == "", p.Why)
		}
	}
	if p := got["3"]; p != nil && p.Index != "GSI1" {
		t.Errorf("pattern 3 reads %s, want GSI1", p.Index)
	}
	if p := got["14"]; p != nil && !strings.Contains(p.Why, "one command") {
		t.Errorf("pattern 14 is left out for %q, want: it chains commands", p.Why)
	}
	if err := d.Catalog().Validate(); err != nil {
		t.Error(err)
	}
	// The lint reads how much a read returns: a limited query one page,
	// an unlimited one every page, a transaction its actions.
	for _, p := range d.Catalog().Patterns {
		switch p.ID {
		case "2":
			if p.MaxItems != 1 || p.AllPages {
				t.Errorf("pattern 2 (--limit 1) declares MaxItems %d, AllPages %t; want 1, false", p.MaxItems, p.AllPages)
			}
		case "3":
			if !p.AllPages {
				t.Error("pattern 3 (no limit) does not declare AllPages")
			}
		case "11":
			if p.MaxActions != 2 {
				t.Errorf("pattern 11 declares %d actions, want 2", p.MaxActions)
			}
		}
	}
}

// A read's spec expects exactly the sample items DynamoDB would return
// for its command, in its order; a write's, the items at the keys it
// writes afterwards, or the samples unchanged when its condition fails.
func TestMCPAccessPatternSpecsExpectTheSampleItems(t *testing.T) {
	d := mcpShop(t)
	texts := map[designs.PatternID]string{}
	for _, p := range d.Patterns {
		var b strings.Builder
		for _, it := range p.Result.Items {
			b.WriteString(mcp.ItemText(it) + "\n")
		}
		for _, it := range p.Result.After {
			b.WriteString("after " + mcp.ItemText(it) + "\n")
		}
		if p.Result.Fails {
			b.WriteString("fails\n")
		}
		texts[p.ID] = b.String()
	}
	for id, want := range map[designs.PatternID]string{
		// the latest order alone: backward, limit 1
		"2": `{"EntityType":{"S":"ORDER"},"GSI1PK":{"S":"STATUS#PENDING"},"GSI1SK":{"S":"2024-02-11#o2"},"PK":{"S":"USER#u1"},"SK":{"S":"ORDER#2024-02-11#o2"},"status":{"S":"PENDING"},"total":{"N":"9"}}` + "\n",
		// the pending orders over 10: o2 (9) filtered out
		"3": `{"EntityType":{"S":"ORDER"},"GSI1PK":{"S":"STATUS#PENDING"},"GSI1SK":{"S":"2024-03-01#o3"},"PK":{"S":"USER#u2"},"SK":{"S":"ORDER#2024-03-01#o3"},"status":{"S":"PENDING"},"total":{"N":"40"}}` + "\n",
		// projected to name and visits
		"4": `{"name":{"S":"Ann"},"visits":{"N":"3"}}` + "\n",
		"6": `after {"EntityType":{"S":"PROFILE"},"PK":{"S":"USER#u2"},"SK":{"S":"PROFILE"},"email":{"S":"bo@example.com"},"lastSeen":{"S":"2024-04-01"},"name":{"S":"Bo"},"visits":{"N":"2"}}` + "\n",
		"7": `after {"EntityType":{"S":"PROFILE"},"PK":{"S":"USER#u1"},"SK":{"S":"PROFILE"},"email":{"S":"ann@example.com"},"name":{"S":"Ann"},"visits":{"N":"3"}}` + "\nfails\n",
		"8": "after \n",
		// u2's profile and no order: the transaction's answer keeps its place
		"12": `{"EntityType":{"S":"PROFILE"},"PK":{"S":"USER#u2"},"SK":{"S":"PROFILE"},"email":{"S":"bo@example.com"},"name":{"S":"Bo"},"visits":{"N":"1"}}` + "\n\n",
	} {
		if texts[id] != want {
			t.Errorf("pattern %s expects\n%s\nwant\n%s", id, texts[id], want)
		}
	}
}

// The generated package declares what it uses, and its specs carry each
// generated pattern's ID as a label, none an uncovered one's.
func TestMCPAccessPatternsRender(t *testing.T) {
	d := mcpShop(t)
	files, err := workbench.Files(d, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Content)
	}
	if bad := undefined(t, "mcpshop", out); len(bad) > 0 {
		t.Errorf("the generated package uses undefined names %q", bad)
	}
	specs := out["designs/mcpshop/patterns_test.go"]
	for _, p := range d.Patterns {
		labelled := strings.Contains(specs, `Label("`+string(p.ID)+`", `)
		if labelled == (p.Why != "") {
			t.Errorf("pattern %s (generated %t) labelled in the specs: %t", p.ID, p.Why == "", labelled)
		}
	}
	if !strings.Contains(out["designs/mcpshop/catalog.go"], `designs.Operation("none")`) {
		t.Error("the external pattern 13 is not an uncovered catalog row")
	}
}

// -strict refuses a model with a pattern the import cannot generate,
// naming it, and writes nothing.
func TestStrictImportRefusesAnUntranslatablePattern(t *testing.T) {
	root := repo(t)
	model, err := filepath.Abs("testdata/mcp_shop.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = workbench.Importer{Root: root, Strict: true}.Import(context.Background(), model, "mcpshop")
	if !errors.Is(err, modelfile.ErrBadModel) || !strings.Contains(err.Error(), "14 (Two commands at once)") {
		t.Fatalf("a strict import of a model with untranslatable patterns: %v, want it refused naming pattern 14", err)
	}
	if _, err := os.Stat(filepath.Join(root, "designs", "mcpshop")); !os.IsNotExist(err) {
		t.Errorf("the refused import wrote designs/mcpshop (%v)", err)
	}
}

// catalogRows is a catalog as export and import must keep it: each
// pattern's ID, name, operation, index and command.
func catalogRows(d designs.Design) []string {
	var out []string
	for _, p := range d.Patterns {
		out = append(out, fmt.Sprintf("%s %q %s %s %q", p.ID, p.Name, p.Op, p.Index, p.Command))
	}
	return out
}

// A design imported from an MCP data model, exported in that format from
// its fixtures and imported again, has the same catalog: the model's
// patterns with their commands, the import's own gets and queries.
func TestExportMCPThenImportGivesBackTheCatalog(t *testing.T) {
	first := mcpShop(t)
	var items []map[string]types.AttributeValue
	for n := range 3 {
		for _, e := range first.Entities {
			for _, it := range e.Samples {
				items = append(items, first.Grow(e, it, n, fixtures.Vary))
			}
		}
	}
	data, err := modelfile.ExportMCP(first.Catalog(), items).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Parse(data)
	if err != nil {
		t.Fatalf("Parse(ExportMCP): %v\n%s", err, data)
	}
	again, err := shape.Infer(first.Name, m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := catalogRows(again.Catalog()), catalogRows(first.Catalog()); !slices.Equal(got, want) {
		t.Errorf("the catalog came back as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	generated := func(d *shape.Design) (out []string) {
		for _, p := range d.Patterns {
			out = append(out, fmt.Sprintf("%s %t", p.ID, p.Why == ""))
		}
		return out
	}
	if got, want := generated(again), generated(first); !slices.Equal(got, want) {
		t.Errorf("the patterns generated came back as %q, want %q", got, want)
	}
	if again.Table.TableName != "Shop" {
		t.Errorf("the table came back as %q, want Shop", again.Table.TableName)
	}
}

// Every design exports to an MCP data model that imports, each pattern
// written in Go back in the catalog, uncovered, under its ID, name,
// operation and index.
func TestExportMCPOfEachDesignImportsItsCatalog(t *testing.T) {
	for _, d := range all.Designs {
		t.Run(d.Name, func(t *testing.T) {
			items, err := lint.Fixtures(context.Background(), d, 200)
			if err != nil {
				t.Fatal(err)
			}
			data, err := modelfile.ExportMCP(d, items).MarshalIndent()
			if err != nil {
				t.Fatal(err)
			}
			m, err := modelfile.Parse(data)
			if err != nil {
				t.Fatalf("Parse(ExportMCP(%s)): %v", d.Name, err)
			}
			again, err := shape.Infer(d.Name, m.DataModel[0])
			if err != nil {
				t.Fatal(err)
			}
			got := catalogRows(again.Catalog())
			for _, row := range catalogRows(d) {
				if !slices.Contains(got, row) {
					t.Errorf("%s is not in the imported catalog:\n%s", row, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// A number the generated entity holds as a float64 is stored as that
// float64 (the SDK writes it 'f', -1): a read's spec expects it so, not
// as the sample spells it.
func TestMCPReadsExpectNumbersAsTheEntityStoresThem(t *testing.T) {
	d := shapetest.Infer(t, "t", `{"tables": [{"TableName": "T", "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
	    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}],
	  "items": {"T": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "score": {"N": "12345678901234567891"}}}}]},
	  "access_patterns": [{"pattern": "1", "description": "get a", "table": "T", "dynamodb_operation": "GetItem",
	    "implementation": "aws dynamodb get-item --table-name T --key '{\"pk\": {\"S\": \"a\"}}'"}]}`)
	for _, p := range d.Patterns {
		if p.ID == "1" {
			if got := mcp.ItemText(p.Result.Items[0]); !strings.Contains(got, `"score":{"N":"12345678901234567000"}`) {
				t.Errorf("pattern 1 expects %s, want score as the float64 the entity stores, 12345678901234567000", got)
			}
			return
		}
	}
	t.Fatal("no pattern 1")
}
