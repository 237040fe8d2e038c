package capacity

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// A hot key whose traffic all went to one item is said to be one item,
// and a merged ledger keeps it so; a collection's is not. Every key of a
// GSI without a sort key is one item.
func TestHotKeyOnOneItem(t *testing.T) {
	counter := sized("PHOTO#1", "PHOTO", 300)
	var calls []pricing.Observation
	for i := range 40 {
		calls = append(calls, pricing.Observation{Op: designs.UpdateItem, Pattern: "AP-01", Writes: []pricing.Write{{Before: counter, After: counter}}})
		likes := sized("LIKES#1", string(rune('a'+i%26))+"x", 200)
		calls = append(calls, pricing.Observation{Op: designs.PutItem, Pattern: "AP-02", Writes: []pricing.Write{{After: likes}}})
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

	l := ledger.NewLedger(schema)
	for i, o := range calls {
		o.At = t0.Add(time.Duration(i%10) * time.Second)
		l.Observe(o)
	}
	merged, err := ledger.MergeLedgers(schema, l.Export(), l.Export())
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
	var own []pricing.Observation
	for i := range 20 {
		own = append(own, pricing.Observation{Op: designs.PutItem, Pattern: "AP-03", Writes: []pricing.Write{{After: with(sized("P", string(rune('a'+i)), 100), "O", s("owner"))}}})
	}
	for _, h := range analyze(Model{Schema: slim, Duration: 10 * time.Second}, own...).Hot {
		if h.Target == "ByOwner" && !h.OneItem {
			t.Errorf("a GSI without a sort key: key %s not one item", h.Key)
		}
	}
}
