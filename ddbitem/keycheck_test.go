package ddbitem

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// multi is a table whose GSI has a key of two attributes each; the cases
// of bench/meter/multikey_test.go hold these rules to DynamoDB Local.
var multi = Schema{PK: "PK", Indexes: []Index{{Name: "G", PK: "t", SK: "s", PKs: []string{"t", "r"}, SKs: []string{"s", "c"}, Projection: types.ProjectionTypeKeysOnly}},
	Types: map[string]types.ScalarAttributeType{"PK": "S", "t": "S", "r": "S", "s": "S", "c": "N"}}

func TestPartitionTextNamesEachAttributeOfATuple(t *testing.T) {
	ix, _ := multi.Index("G")
	e := Item{"t": s("t1"), "r": s("eu"), "s": s("open"), "c": n("1")}
	if got := ix.PartitionText(e); got != "t=t1, r=eu" {
		t.Errorf("PartitionText = %q, want %q", got, "t=t1, r=eu")
	}
	if got := ix.PartitionText(Item{"t": s("t1")}); got != "" {
		t.Errorf("PartitionText of an item without r = %q, want empty", got)
	}
	if got := (Index{PK: "t"}).PartitionText(e); got != "t1" {
		t.Errorf("PartitionText of a one-attribute key = %q, want the value alone", got)
	}
}

func TestEntryNeedsEveryKeyAttribute(t *testing.T) {
	ix, _ := multi.Index("G")
	full := Item{"PK": s("k"), "t": s("t1"), "r": s("eu"), "s": s("open"), "c": n("1"), "x": s("dropped")}
	e := multi.Entry(ix, full)
	if len(e) != 5 || e["x"] != nil || e["c"] == nil || e["r"] == nil {
		t.Errorf("KEYS_ONLY entry = %v, want the four key attributes and the table's key", e)
	}
	for _, a := range ix.KeyAttrs() {
		it := Item{}
		for k, v := range full {
			if k != a {
				it[k] = v
			}
		}
		if e := multi.Entry(ix, it); e != nil {
			t.Errorf("an item without %s has entry %v, want none", a, e)
		}
	}
}

func TestQueryPartitionIsTheTuple(t *testing.T) {
	c := Condition{Expr: "#r = :r AND t = :t AND s > :s", Names: map[string]string{"#r": "r"},
		Values: map[string]types.AttributeValue{":r": s("eu"), ":t": s("t1"), ":s": s("a")}}
	part, ok := multi.QueryPartition("G", c)
	if !ok || PartitionText([]string{"t", "r"}, part) != "t=t1, r=eu" {
		t.Errorf("QueryPartition = %v, %v; want t1 and eu", part, ok)
	}
	if _, ok := multi.QueryPartition("G", Condition{Expr: "t = :t", Values: c.Values}); ok {
		t.Errorf("QueryPartition of a condition without r: ok, want not")
	}
	if err := multi.CheckKeyCondition("G", c); err != nil {
		t.Errorf("CheckKeyCondition(%q) = %v, want nil", c.Expr, err)
	}
}
