package workbench_test

import (
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// tournament is testdata/mcp_tournament.json imported: matches on a GSI
// keyed by tournamentId and region (partition) and round and bracket
// (sort), with a text of the model replaced by edit when it is not nil.
func tournament(t *testing.T, edit func(string) string) *shape.Design {
	t.Helper()
	return inferred(t, "mcp_tournament.json", "tournament", edit)
}

// A GSI whose KeySchema has several HASH and RANGE entries is imported as
// a multi-attribute key: PKs and SKs in the KeySchema's order, each
// attribute typed by its own definition, and its query gives every
// partition key attribute by equality through designs.KeyQuery, its spec
// expecting each partition's matches ordered by round, then bracket, and
// none that lacks an attribute of the index's key.
func TestMultiAttributeGSIKeysAreImportedInOrder(t *testing.T) {
	d := tournament(t, nil)
	want := designs.Index{Name: "ByTournamentRegion", PKs: []string{"tournamentId", "region"}, SKs: []string{"round", "bracket"}}
	if got := d.Schema.GSIs; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("the GSIs came back as %+v, want [%+v]", got, want)
	}
	if got := d.Schema.Types["round"]; got != types.ScalarAttributeTypeN {
		t.Errorf("round is typed %q, want N as its AttributeDefinitions says", got)
	}
	if err := d.Catalog().Validate(); err != nil {
		t.Errorf("the imported catalog is refused: %v", err)
	}
	files, err := workbench.Files(d, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, f := range files {
		src[f.Path] = string(f.Content)
	}
	for file, wants := range map[string][]string{
		"designs/tournament/schema.go": {`{Name: IndexByTournamentRegion, PKs: []string{"tournamentId", "region"}, SKs: []string{"round", "bracket"}}`},
		"designs/tournament/patterns.go": {"Schema.KeyQuery(IndexByTournamentRegion).\n\t\tEqual(\"tournamentId\", tournamentId).\n\t\tEqual(\"region\", region).Build()",
			"Index: IndexByTournamentRegion, Size: PageSize, After: after, Key: key,"},
		"designs/tournament/patterns_test.go": {`"returns the 3 sample items of partition tournamentId=spring26, region=eu in sort key order"`,
			`table.QueryByTournamentRegionByTournamentIdRegion(ctx, "spring26", "eu", "")`},
		"designs/tournament/README.md": {"Index `ByTournamentRegion` (`tournamentId`, `region`, `round`, `bracket`"},
	} {
		for _, w := range wants {
			if !strings.Contains(src[file], w) {
				t.Errorf("%s does not hold\n%s\nit is:\n%s", file, w, src[file])
			}
		}
	}
	// Round 1 before round 2, and within round 1 the lower bracket first:
	// the sort key's attributes left to right, each by its type.
	spec := src["designs/tournament/patterns_test.go"]
	at := strings.Index(spec, "partition tournamentId=spring26, region=eu in sort key order")
	var order []string
	for _, id := range []string{`MatchID: "m02"`, `MatchID: "m01"`, `MatchID: "m03"`} {
		order = append(order, id)
		if i := strings.Index(spec[at:], id); i < 0 || i > strings.Index(spec[at:], "}))") {
			t.Errorf("the spec of partition spring26, eu does not expect %s", id)
		}
	}
	if a, b, c := strings.Index(spec[at:], order[0]), strings.Index(spec[at:], order[1]), strings.Index(spec[at:], order[2]); a >= b || b >= c {
		t.Errorf("the spec of partition spring26, eu expects its matches out of (round, bracket) order:\n%s", spec[at:])
	}
	// m07 has no bracket yet: it lacks a key attribute of the index, so
	// it is in none of its partitions.
	if end := strings.Index(spec[at:], "}))"); strings.Contains(spec[at:at+end], `MatchID: "m07"`) {
		t.Errorf("the spec of partition spring26, eu expects m07, which has no bracket and so is not in the index:\n%s", spec[at:at+end])
	}
}

// DynamoDB takes several attributes per side in a GSI's key only, up to
// four each: a table's or an LSI's key of several, or a GSI's of five,
// is refused with its path and the rule, before anything is written.
func TestMultiAttributeKeysAreRefusedWhereDynamoDBRefusesThem(t *testing.T) {
	gsi := func(keys string) string {
		return `, "GlobalSecondaryIndexes": [{"IndexName": "Wide", "KeySchema": [` + keys + `], "Projection": {"ProjectionType": "ALL"}}]`
	}
	hash := func(names ...string) string {
		var out []string
		for _, n := range names {
			out = append(out, `{"AttributeName": "`+n+`", "KeyType": "HASH"}`)
		}
		return strings.Join(out, ", ")
	}
	rng := func(names ...string) string { return strings.ReplaceAll(hash(names...), "HASH", "RANGE") }
	for _, tc := range []struct {
		name  string
		model []byte
		want  []string
	}{
		{"a table key of two HASH attributes", []byte(strings.Replace(string(mcpTable("")), `"KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}]`,
			`"KeySchema": [`+hash("PK", "region")+`]`, 1)),
			[]string{"$.tables[0].KeySchema: the table's key has partition key (PK, region)", "only a GSI's may have several"}},
		{"an LSI with two RANGE attributes", mcpTable(`, "LocalSecondaryIndexes": [{"IndexName": "ByRound", "KeySchema": [` + hash("PK") + `, ` + rng("round", "bracket") + `], "Projection": {"ProjectionType": "ALL"}}]`),
			[]string{`$.tables[0].LocalSecondaryIndexes[0].KeySchema: LSI "ByRound" has partition key (PK), sort key (round, bracket)`, "make it a GSI, or give it one RANGE attribute"}},
		{"a GSI of five HASH attributes", mcpTable(gsi(hash("tournamentId", "region", "round", "bracket", "PK"))),
			[]string{`$.tables[0].GlobalSecondaryIndexes[0].KeySchema: index "Wide" has partition key (tournamentId, region, round, bracket, PK)`, "up to 4 HASH and 4 RANGE attributes"}},
		{"a GSI of five RANGE attributes", mcpTable(gsi(hash("PK") + ", " + rng("tournamentId", "region", "round", "bracket", "extra"))),
			[]string{`sort key (tournamentId, region, round, bracket, extra)`, "up to 4 HASH and 4 RANGE attributes"}},
	} {
		_, err := modelfile.Parse(tc.model)
		if !errors.Is(err, modelfile.ErrBadModel) {
			t.Errorf("%s: Parse = %v, want it refused as a bad model", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: the refusal\n%s\ndoes not say\n%s", tc.name, err, w)
			}
		}
	}
	// Four of each is DynamoDB's bound, and imports.
	m, err := modelfile.Parse(mcpTable(gsi(hash("tournamentId", "region", "round", "bracket") + ", " + rng("PK", "a", "b", "c"))))
	if err != nil {
		t.Fatalf("a GSI of four HASH and four RANGE attributes is refused: %v", err)
	}
	if got := m.DataModel[0].Schema().GSIs[0]; len(got.PKs) != 4 || len(got.SKs) != 4 {
		t.Errorf("a GSI of four and four came back as %+v", got)
	}
	// An attribute named twice in one key is refused by the schema's own
	// check (designs.Schema.CheckKeys), naming it.
	m, err = modelfile.Parse(mcpTable(gsi(hash("tournamentId", "region") + ", " + rng("region"))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := shape.Infer("twice", m.DataModel[0]); err == nil || !strings.Contains(err.Error(), "attribute region named twice") {
		t.Errorf("Infer of a key naming region twice = %v, want it refused naming region", err)
	}
}

// A NoSQL Workbench model has one attribute per side of a key: a list
// there is refused as a multi-attribute key, naming the MCP data model's
// KeySchema, which carries one.
func TestAWorkbenchModelsListOfKeyAttributesIsRefusedByName(t *testing.T) {
	_, err := modelfile.Parse([]byte(`{"ModelName": "M", "DataModel": [{"TableName": "T",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
	  "GlobalSecondaryIndexes": [{"IndexName": "ByTournamentRegion", "KeyAttributes": {"PartitionKey": [{"AttributeName": "tournamentId", "AttributeType": "S"},
	    {"AttributeName": "region", "AttributeType": "S"}]}, "Projection": {"ProjectionType": "ALL"}}],
	  "TableData": [{"PK": {"S": "a"}}]}]}`))
	if !errors.Is(err, modelfile.ErrBadModel) || !strings.Contains(err.Error(), "$.DataModel.GlobalSecondaryIndexes.KeyAttributes.PartitionKey: a list of attributes") ||
		!strings.Contains(err.Error(), "cannot hold a multi-attribute key") || !strings.Contains(err.Error(), "KeySchema") {
		t.Errorf("Parse of a Workbench index keyed by a list = %v, want it refused as a multi-attribute key, pointing to the MCP model's KeySchema", err)
	}
}

// A design with a multi-attribute GSI key goes to an MCP data model and
// back with the same schema and catalog; a NoSQL Workbench model, which
// keys an index by one attribute per side, is refused by name.
func TestMultiAttributeKeysRoundTripThroughTheMCPModel(t *testing.T) {
	first := tournament(t, nil)
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
	if !strings.Contains(string(data), `"KeySchema": [
            {
              "AttributeName": "tournamentId",
              "KeyType": "HASH"
            },
            {
              "AttributeName": "region",
              "KeyType": "HASH"
            },
            {
              "AttributeName": "round",
              "KeyType": "RANGE"
            },
            {
              "AttributeName": "bracket",
              "KeyType": "RANGE"
            }
          ]`) {
		t.Errorf("the export does not key the GSI by its four attributes in order:\n%s", data)
	}
	m, err := modelfile.Parse(data)
	if err != nil {
		t.Fatalf("Parse(ExportMCP): %v", err)
	}
	again, err := shape.Infer(first.Name, m.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Schema, first.Schema) {
		t.Errorf("the schema came back as\n%+v\nwant\n%+v", again.Schema, first.Schema)
	}
	if got, want := catalogRows(again.Catalog()), catalogRows(first.Catalog()); !slices.Equal(got, want) {
		t.Errorf("the catalog came back as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	_, err = modelfile.Export(first.Catalog(), items, time.Unix(0, 0))
	if !errors.Is(err, modelfile.ErrNoWorkbenchKey) || !strings.Contains(err.Error(), "GSI ByTournamentRegion is keyed by partition key (tournamentId, region), sort key (round, bracket)") ||
		!strings.Contains(err.Error(), "FORMAT=mcp") {
		t.Errorf("Export to a Workbench model = %v, want it refused naming the index, its key and the MCP format", err)
	}
}

// An attribute name of a multi-attribute key gets what any model text
// gets: a quote, a line break and a terminal escape reach the generated
// Go only quoted (the files still parse) and the README only escaped.
func TestMultiAttributeKeyNamesReachTheFilesEscaped(t *testing.T) {
	const hostile = "reg\"ion\x1b[2J\nimport-model: wrote design spoofed"
	quoted, _ := json.Marshal(hostile)
	d := tournament(t, func(s string) string { return strings.ReplaceAll(s, `"region"`, string(quoted)) })
	if got := d.Schema.GSIs[0].PKs; !slices.Equal(got, []string{"tournamentId", hostile}) {
		t.Fatalf("the GSI's partition key came back as %q", got)
	}
	files, err := workbench.Files(d, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if r, ok := raw(string(f.Content)); ok {
			t.Errorf("%s holds %U raw", f.Path, r)
		}
		if strings.HasSuffix(f.Path, ".go") {
			if _, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, 0); err != nil {
				t.Errorf("%s does not parse: %v", f.Path, err)
			}
		}
		for _, line := range strings.Split(string(f.Content), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "import-model: wrote design spoofed") {
				t.Errorf("%s has a line the attribute's name began: %q", f.Path, line)
			}
		}
	}
}

// tournamentKeyNamed is testdata/mcp_tournament.json without its access
// patterns, the partition key attribute region of its multi-attribute
// GSI key named name instead.
func tournamentKeyNamed(name string) []byte {
	data, err := os.ReadFile("testdata/mcp_tournament.json")
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	m["access_patterns"] = []any{}
	table := m["tables"].([]any)[0].(map[string]any)
	rename := func(list []any) {
		for _, x := range list {
			if a := x.(map[string]any); a["AttributeName"] == "region" {
				a["AttributeName"] = name
			}
		}
	}
	rename(table["AttributeDefinitions"].([]any))
	rename(table["GlobalSecondaryIndexes"].([]any)[0].(map[string]any)["KeySchema"].([]any))
	for _, x := range m["items"].(map[string]any)["Matches"].([]any) {
		item := x.(map[string]any)["PutRequest"].(map[string]any)["Item"].(map[string]any)
		if v, ok := item["region"]; ok {
			delete(item, "region")
			item[name] = v
		}
	}
	return []byte(jsonText(m))
}

// FuzzMultiAttributeKeyNamesHoldOnlyWhatTheyWrote names an attribute of
// a multi-attribute GSI key with text and checks that the generated
// files parse and hold the same code as the plain model's: the name may
// change names, literals and comments, nothing else.
func FuzzMultiAttributeKeyNamesHoldOnlyWhatTheyWrote(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		t.Parallel()
		why := compareWithPlain(t, 0, s, tournamentKeyNamed(s), func() *plain {
			return plainModel(t, "MCP tournament", func() []byte { return tournamentKeyNamed("region") })
		})
		switch {
		case why != "" && slices.Contains(hostile, s):
			t.Errorf("%q as a key attribute's name compared nothing, which it must: %s", s, why)
		case why != "":
			t.Skip(why)
		}
	})
}
