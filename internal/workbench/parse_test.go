package workbench_test

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// gallery is the model docs/models/gallery.json: 4 facets, 2 GSIs (one
// with INCLUDE), composite sort keys, attribute names with '#', '-' and a
// space.
func gallery(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../docs/models/gallery.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// edit returns the gallery model with its first match of old replaced by
// new; white space in old matches any.
func edit(t *testing.T, old, new string) []byte {
	t.Helper()
	var parts []string
	for _, f := range strings.Fields(old) {
		parts = append(parts, regexp.QuoteMeta(f))
	}
	re := regexp.MustCompile(strings.Join(parts, `\s*`))
	s := gallery(t)
	at := re.FindIndex(s)
	if at == nil {
		t.Fatalf("the gallery model has no %q", old)
	}
	return slices.Concat(s[:at[0]], []byte(new), s[at[1]:])
}

func TestParseRefusesABadModelWithItsPathAndTheFix(t *testing.T) {
	for _, c := range []struct {
		name       string
		model      []byte
		path, says string
	}{
		{"not JSON", []byte("{\"ModelName\": \"x\",\n  \"DataModel\": [\n}"), "$", "not JSON (line 3"},
		{"a CloudFormation template", []byte(`{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}}`), "$.DataModel", "missing or empty"},
		{"an empty DataModel", []byte(`{"ModelName": "x", "DataModel": []}`), "$.DataModel", "missing or empty"},
		{"a DataModel that is not a list", []byte(`{"ModelName": "x", "DataModel": {}}`), "$.DataModel", "a JSON object where the model format wants"},
		{"members the harness does not read", edit(t, `"SortKeyAlias": "SK"`, `"SortKeyAlias": "SK", "X": 1`), "", ""},
		{"a facet without its partition key alias", edit(t, `"PartitionKeyAlias": "PK"`, `"PartitionKeyAlias": ""`), "$.DataModel[0].TableFacets[0].KeyAttributeAlias.PartitionKeyAlias", "missing"},
		{"a sample item missing its key", edit(t, `"SK": {
            "S": "PROFILE"
          },`, ``), "$.DataModel[0].TableFacets[0].TableData[0]", "has no SK, part of the table's key"},
		{"two samples with one key", edit(t, `"S": "USER#bob"`, `"S": "USER#alice"`), "$.DataModel[0].TableFacets[0].TableData[1]", "same key as $.DataModel[0].TableFacets[0].TableData[0]"},
		{"an index key of the wrong type", edit(t, `"GSI1PK": { "S": "EMAIL#alice@example.com" }`, `"GSI1PK": {"N": "1"}`), "$.DataModel[0].TableFacets[0].TableData[0].GSI1PK", "is N, a key of an index declared S"},
		{"a value that is not DynamoDB JSON", edit(t, `"S": "Alice Liddell"`, `"X": "Alice Liddell"`), "$.DataModel[0].TableFacets[0].TableData[0].display name", `unknown type "X"`},
		{"a number DynamoDB does not write", edit(t, `"N": "120"`, `"N": "NaN"`), "$.DataModel[0].TableFacets[0].TableData[0].Followers.N", "a number written as a string"},
		{"a number in hex", edit(t, `"N": "120"`, `"N": "0x78"`), "$.DataModel[0].TableFacets[0].TableData[0].Followers.N", "a number written as a string"},
		{"a set that holds one element twice", edit(t, `"sea", "dawn"`, `"sea", "sea"`), "$.DataModel[0].TableFacets[1].TableData[0].Tags.SS", `no element twice ("sea" is)`},
		{"a number past DynamoDB's range", edit(t, `"N": "120"`, `"N": "1e999999"`), "$.DataModel[0].TableFacets[0].TableData[0].Followers.N", "outside DynamoDB's range of numbers"},
		{"a number with more digits than DynamoDB keeps", edit(t, `"N": "120"`, `"N": "1234567890123456789012345678901234567891"`), "$.DataModel[0].TableFacets[0].TableData[0].Followers.N", "40 significant digits: DynamoDB keeps at most 38"},
		{"an index named as the table", edit(t, `"IndexName": "GSI1"`, `"IndexName": "main-table"`), "$.DataModel[0].GlobalSecondaryIndexes[0].IndexName", "call the table itself"},
		{"an index with a bad projection", edit(t, `"ProjectionType": "ALL"`, `"ProjectionType": "SOME"`), "$.DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType", "want ALL, KEYS_ONLY or INCLUDE"},
		{"a sample attribute name with a comma", edit(t, `"Email":`, `"a,b":`), "$.DataModel[0].TableFacets[0].TableData[0].a,b", "cannot be a Go attribute tag"},
		{"a sample attribute named -", edit(t, `"Email":`, `"-":`), "$.DataModel[0].TableFacets[0].TableData[0].-", "cannot be a Go attribute tag"},
		{"a sample attribute with an empty name", edit(t, `"Email":`, `"":`), "$.DataModel[0].TableFacets[0].TableData[0]", "an empty name, which DynamoDB refuses"},
		{"a nested map's attribute with an empty name", edit(t, `"Camera":`, `"":`), "$.DataModel[0].TableFacets[1].TableData[0].Exif.M", "an empty name, which DynamoDB refuses"},
		{"a binary set that holds one element twice", edit(t, `"Tags": { "SS": [ "sea", "dawn" ] }`, `"Tags": {"BS": ["AAE=", "AAE="]}`), "$.DataModel[0].TableFacets[1].TableData[0].Tags.BS", "no element twice"},
		{"a value nested past DynamoDB's 32 levels", edit(t, `"Caption": { "S": "Sunrise over the bay" }`, `"Caption": `+nested(32)), "$.DataModel[0].TableFacets[1].TableData[0].Caption" + strings.Repeat(".M.a", 32), "nested 33 levels deep, past DynamoDB's 32"},
		{"a value nested past a JSON reader's depth", edit(t, `"Caption": { "S": "Sunrise over the bay" }`, `"Caption": `+nested(6000)), "$", "nested deeper than a JSON reader follows"},
		{"an item over DynamoDB's 400 KB", edit(t, `"S": "Sunrise over the bay"`, `"S": "`+strings.Repeat("x", 400<<10)+`"`), "$.DataModel[0].TableFacets[1].TableData[0]", "over DynamoDB's item size limit of 400 KB"},
		{"a facet attribute the table does not declare", edit(t, `"Followers",
            "EntityType"`, `"Followers",
            "Nickname"`), "$.DataModel[0].TableFacets[0].NonKeyAttributes[3]", "not among the table's NonKeyAttributes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.path == "" { // unknown members are Workbench's business: accepted
				if _, err := modelfile.Parse(c.model); err != nil {
					t.Fatalf("Parse: %v, want it accepted", err)
				}
				return
			}
			_, err := modelfile.Parse(c.model)
			var me *modelfile.ModelError
			if !errors.As(err, &me) || !errors.Is(err, modelfile.ErrBadModel) {
				t.Fatalf("Parse: %v, want a ModelError", err)
			}
			if me.Path != c.path || !strings.Contains(me.Problem, c.says) {
				t.Errorf("Parse: %q at %q, want %q at %q", me.Problem, me.Path, c.says, c.path)
			}
		})
	}
}

func TestParseRefusesASortKeyAliasWhenTheTableHasNoSortKey(t *testing.T) {
	m := `{"ModelName": "x", "DataModel": [{"TableName": "T",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}},
	  "TableFacets": [{"FacetName": "a", "KeyAttributeAlias": {"PartitionKeyAlias": "id", "SortKeyAlias": "when"},
	    "TableData": [{"id": {"S": "1"}}]}]}]}`
	_, err := modelfile.Parse([]byte(m))
	var me *modelfile.ModelError
	if !errors.As(err, &me) || me.Path != "$.DataModel[0].TableFacets[0].KeyAttributeAlias.SortKeyAlias" || !strings.Contains(me.Problem, "names no key") {
		t.Fatalf("Parse: %v, want the SortKeyAlias refused as naming no key", err)
	}
}

// Number keys are one item by value, as DynamoDB stores them: 1 and 1.0
// collide.
func TestParseRefusesTwoSamplesWhoseNumberKeysAreEqual(t *testing.T) {
	m := `{"ModelName": "x", "DataModel": [{"TableName": "T",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "N"}},
	  "TableData": [{"id": {"N": "1"}}, {"id": {"N": "1.0"}}]}]}`
	_, err := modelfile.Parse([]byte(m))
	var me *modelfile.ModelError
	if !errors.As(err, &me) || me.Path != "$.DataModel[0].TableData[1]" || !strings.Contains(me.Problem, "same key as $.DataModel[0].TableData[0]") {
		t.Fatalf("Parse: %v, want the second sample refused as the first's key", err)
	}
}

// A sample's numbers are read as DynamoDB stores them, so that the specs
// made from them expect what DynamoDB gives back; a number set holding one
// value twice ("2" and "2.0") is refused, as DynamoDB refuses it.
func TestParseReadsNumbersAsDynamoDBStoresThem(t *testing.T) {
	m := `{"ModelName": "x", "DataModel": [{"TableName": "T",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "N"}},
	  "TableData": [{"id": {"N": "160.50"}, "sizes": {"NS": ["+007", "15e-1"]}}]}]}`
	got, err := modelfile.Parse([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	item := got.DataModel[0].TableData[0].Attrs
	if id := item["id"].(*types.AttributeValueMemberN).Value; id != "160.5" {
		t.Errorf("id read as %q, want 160.5", id)
	}
	if sizes := item["sizes"].(*types.AttributeValueMemberNS).Value; !slices.Equal(sizes, []string{"7", "1.5"}) {
		t.Errorf("sizes read as %q, want [7 1.5]", sizes)
	}

	_, err = modelfile.Parse([]byte(strings.Replace(m, `["+007", "15e-1"]`, `["2", "2.0"]`, 1)))
	var me *modelfile.ModelError
	if !errors.As(err, &me) || me.Path != "$.DataModel[0].TableData[0].sizes.NS" || !strings.Contains(me.Problem, `no element twice ("2" is)`) {
		t.Fatalf("Parse: %v, want the set refused for holding 2 twice", err)
	}
}

func TestParseTypesEveryIndexKey(t *testing.T) {
	m, err := modelfile.Parse([]byte(`{"ModelName": "Typed", "DataModel": [{"TableName": "typed",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "N"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "NonKeyAttributes": [{"AttributeName": "Owner", "AttributeType": "S"}],
	  "GlobalSecondaryIndexes": [
	    {"IndexName": "Inverted", "KeyAttributes": {"PartitionKey": {"AttributeName": "SK"}, "SortKey": {"AttributeName": "PK"}}, "Projection": {"ProjectionType": "ALL"}},
	    {"IndexName": "ByScore", "KeyAttributes": {"PartitionKey": {"AttributeName": "Owner"}, "SortKey": {"AttributeName": "Score"}}, "Projection": {"ProjectionType": "ALL"}},
	    {"IndexName": "ByScoreN", "KeyAttributes": {"PartitionKey": {"AttributeName": "Score", "AttributeType": "N"}}, "Projection": {"ProjectionType": "ALL"}},
	    {"IndexName": "ByTag", "KeyAttributes": {"PartitionKey": {"AttributeName": "Tag"}}, "Projection": {"ProjectionType": "ALL"}}],
	  "TableData": [{"PK": {"N": "1"}, "SK": {"S": "a"}, "Owner": {"S": "o"}, "Score": {"N": "3"}, "Tag": {"S": "t"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Inverted": "S N", "ByScore": "S N", "ByScoreN": "N", "ByTag": "S"}
	for _, ix := range m.DataModel[0].GlobalSecondaryIndexes {
		t.Run(ix.IndexName, func(t *testing.T) {
			got := ix.KeyAttributes.PartitionKey.AttributeType
			if sk := ix.KeyAttributes.SortKey; sk != nil {
				got += " " + sk.AttributeType
			}
			if got != want[ix.IndexName] {
				t.Errorf("key types %q, want %q: the table's keys, its attributes, then another index type them; S when none does", got, want[ix.IndexName])
			}
		})
	}
}

// nested is a string value inside n maps, each of one attribute "a".
func nested(n int) string {
	return strings.Repeat(`{"M": {"a": `, n) + `{"S": "x"}` + strings.Repeat("}}", n)
}
