package capacity

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Each charge names the item it touched: one item read or written, on the
// table and on each index whose entry the write changed; a Query of two
// items names many.
func TestChargesNameTheirItem(t *testing.T) {
	is := schema.ItemSchema()
	one := with(sized("P1", "S1", 300), "G", s("G1"), "GS", s("x"))
	id, _ := is.KeyID(one)
	item := func(cs []Charge, target, key string) string {
		for _, c := range cs {
			if c.Target == target && c.Key == key {
				return c.Item
			}
		}
		t.Fatalf("no charge on %s %s in %+v", target, key, cs)
		return ""
	}
	get := Account(is, Observation{At: t0, Op: designs.GetItem, Reads: nil, Addressed: []ddbitem.Item{one}})
	if got := item(get, designs.MainTable, "P1"); got != id {
		t.Errorf("GetItem of a missing item: Item %q, want the key it named %q", got, id)
	}
	put := Account(is, Observation{At: t0, Op: designs.PutItem, Writes: []Write{{After: one}}})
	if got := item(put, designs.MainTable, "P1"); got != id {
		t.Errorf("PutItem: table Item %q, want %q", got, id)
	}
	if got := item(put, "GSI1", "G1"); got != id {
		t.Errorf("PutItem: GSI1 Item %q, want the base item's key %q", got, id)
	}
	two := sized("P1", "S2", 300)
	q := Account(is, Observation{At: t0, Op: designs.Query, Reads: []ddbitem.Item{one, two}, Addressed: []ddbitem.Item{{"PK": s("P1")}}})
	if got := item(q, designs.MainTable, "P1"); got != ManyItems {
		t.Errorf("Query of two items: Item %q, want ManyItems", got)
	}
}

// A hot key whose traffic all went to one item is said to be one item,
// and a merged ledger keeps it so; a collection's is not. Every key of a
// GSI without a sort key is one item.
func TestHotKeyOnOneItem(t *testing.T) {
	counter := sized("PHOTO#1", "PHOTO", 300)
	var calls []Observation
	for i := range 40 {
		calls = append(calls, Observation{Op: designs.UpdateItem, Pattern: "AP-01", Writes: []Write{{Before: counter, After: counter}}})
		likes := sized("LIKES#1", string(rune('a'+i%26))+"x", 200)
		calls = append(calls, Observation{Op: designs.PutItem, Pattern: "AP-02", Writes: []Write{{After: likes}}})
	}
	m := Model{Schema: schema, Duration: 10 * time.Second}
	r := analyze(m, calls...)
	got := map[string]HotKey{}
	for _, h := range r.Hot {
		if h.Target == designs.MainTable {
			got[h.Key] = h
		}
	}
	if h := got["PHOTO#1"]; !h.OneItem {
		t.Errorf("the counter's key is not said to be one item: %+v", h)
	}
	if h := got["LIKES#1"]; h.OneItem {
		t.Errorf("the likes collection's key is said to be one item: %+v", h)
	}

	l := NewLedger(schema)
	for i, o := range calls {
		o.At = t0.Add(time.Duration(i%10) * time.Second)
		l.Observe(o)
	}
	merged, err := MergeLedgers(schema, l.Export(), l.Export())
	if err != nil {
		t.Fatal(err)
	}
	m.Requests = int64(2 * len(calls))
	for _, h := range m.Analyze(merged).Hot {
		if h.Target == designs.MainTable && (h.Key == "PHOTO#1") != h.OneItem {
			t.Errorf("merged: %s OneItem %v", h.Key, h.OneItem)
		}
	}

	slim := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByOwner", PK: "O"}}}
	var own []Observation
	for i := range 20 {
		own = append(own, Observation{Op: designs.PutItem, Pattern: "AP-03", Writes: []Write{{After: with(sized("P", string(rune('a'+i)), 100), "O", s("owner"))}}})
	}
	for _, h := range analyze(Model{Schema: slim, Duration: 10 * time.Second}, own...).Hot {
		if h.Target == "ByOwner" && !h.OneItem {
			t.Errorf("a GSI without a sort key: key %s not one item", h.Key)
		}
	}
}
