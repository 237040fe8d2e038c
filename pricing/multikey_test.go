package pricing

import (
	"testing"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// TestChargesAMultiAttributeKeyOnItsTuple: a GSI keyed by two attributes
// is charged on the pair, named attribute by attribute; a write that
// changes the second moves the entry (a delete and a put, on two
// partitions), and a Query is charged on the pair it names.
func TestChargesAMultiAttributeKeyOnItsTuple(t *testing.T) {
	rules := designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PKs: []string{"tenantId", "regionCode"}, SK: "at"}}}.ItemSchema()
	img := func(region string) ddbitem.Item {
		return ddbitem.Item{"PK": s("o1"), "tenantId": s("t1"), "regionCode": s(region), "at": s("2026")}
	}
	got := render(Account(rules, Observation{At: t0, Op: designs.UpdateItem, Writes: []Write{{Before: img("eu"), After: img("us")}}}))
	want := "G/tenantId=t1, regionCode=eu rcu=0 wcu=1; G/tenantId=t1, regionCode=us rcu=0 wcu=1; main-table/o1 rcu=0 wcu=1"
	if got != want {
		t.Errorf("a move between tuples charged %s, want %s", got, want)
	}
	q := Observation{At: t0, Op: designs.Query, Index: "G", Reads: []ddbitem.Item{img("eu")},
		Addressed: []ddbitem.Item{{"tenantId": s("t1"), "regionCode": s("eu")}}}
	if got, want := render(Account(rules, q)), "G/tenantId=t1, regionCode=eu rcu=0.5 wcu=0"; got != want {
		t.Errorf("a Query of one tuple charged %s, want %s", got, want)
	}
}
