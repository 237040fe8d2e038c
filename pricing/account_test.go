package pricing

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing/pricingtest"
)

// The specs' table, items and time, shared with the ledger's.
var (
	schema, t0     = pricingtest.Schema, pricingtest.T0
	s, with, sized = pricingtest.S, pricingtest.With, pricingtest.Sized
)

// render prints charges sorted, one "target/key rcu=… wcu=…" each.
func render(cs []Charge) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s/%s rcu=%g wcu=%g", c.Target, c.Key, c.RCU, c.WCU))
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

func TestAccount(t *testing.T) {
	big := sized("ITEM#1", "A", 3584) // 3.5 KB
	put := sized("ITEM#2", "A", 1200) // 1.2 KB
	small := sized("ITEM#3", "A", 800)
	indexed := with(small, "G", s("GROUP#a"), "GS", s("1"), "K", s("k1"))
	var tenOf500 []ddbitem.Item
	for i := range 10 {
		tenOf500 = append(tenOf500, sized("CLIENT#9", fmt.Sprintf("INV#%02d", i), 500))
	}
	tests := []struct {
		name string
		obs  Observation
		want string
	}{
		// 3,584 B rounds up to 4 KB: one unit strongly consistent, half eventually, two in a transaction.
		{"GetItem 3.5 KB strongly consistent", Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{big}},
			"main-table/ITEM#1 rcu=1 wcu=0"},
		{"GetItem 3.5 KB eventually consistent", Observation{Op: designs.GetItem, Reads: []ddbitem.Item{big}},
			"main-table/ITEM#1 rcu=0.5 wcu=0"},
		{"GetItem of a missing item still costs the minimum", Observation{Op: designs.GetItem,
			Addressed: []ddbitem.Item{{"PK": s("NOPE"), "SK": s("A")}}},
			"main-table/NOPE rcu=0.5 wcu=0"},
		{"TransactGetItems: two units per 4 KB, misses too", Observation{Op: designs.TransactGetItems, Reads: []ddbitem.Item{big},
			Addressed: []ddbitem.Item{{"PK": s("ITEM#1"), "SK": s("A")}, {"PK": s("NOPE"), "SK": s("A")}}},
			"main-table/ITEM#1 rcu=2 wcu=0; main-table/NOPE rcu=2 wcu=0"},
		// 1.5 KB and 6.5 KB round to 4 KB + 8 KB, not 8 KB together.
		{"BatchGetItem rounds each item", Observation{Op: designs.BatchGetItem, Consistent: true,
			Reads: []ddbitem.Item{sized("A", "1", 1536), sized("B", "1", 6656)}},
			"main-table/A rcu=1 wcu=0; main-table/B rcu=2 wcu=0"},
		// 10 × 500 B = 5,000 B, rounded once to 8 KB.
		{"Query sums 10 items of 500 B", Observation{Op: designs.Query, Consistent: true, Reads: tenOf500},
			"main-table/CLIENT#9 rcu=2 wcu=0"},
		{"Query eventually consistent", Observation{Op: designs.Query, Reads: tenOf500},
			"main-table/CLIENT#9 rcu=1 wcu=0"},
		{"Query that finds nothing costs the minimum on its partition", Observation{Op: designs.Query,
			Addressed: []ddbitem.Item{{"PK": s("CLIENT#0")}}},
			"main-table/CLIENT#0 rcu=0.5 wcu=0"},
		// Each KEYS_ONLY entry (PK, SK, K) is 14 B whatever the item's size: 28 B, half a unit.
		{"Query on a KEYS_ONLY GSI reads entries, eventually consistent", Observation{Op: designs.Query, Index: "Slim",
			Consistent: true, Reads: []ddbitem.Item{with(big, "K", s("k1")), with(put, "K", s("k1"))}},
			"Slim/k1 rcu=0.5 wcu=0"},
		// 1,200 B rounds up to 2 KB; it has no index keys.
		{"PutItem 1.2 KB", Observation{Op: designs.PutItem, Writes: []Write{{After: put}}},
			"main-table/ITEM#2 wcu=2 rcu=0"},
		{"PutItem that fills both GSIs", Observation{Op: designs.PutItem, Writes: []Write{{After: indexed}}},
			"GSI1/GROUP#a rcu=0 wcu=1; Slim/k1 rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		// Table 1 WCU; GSI1 deletes the entry under the old key and puts it under the new one.
		{"UpdateItem that changes a GSI key", Observation{Op: designs.UpdateItem,
			Writes: []Write{{Before: indexed, After: with(indexed, "G", s("GROUP#b"))}}},
			"GSI1/GROUP#a rcu=0 wcu=1; GSI1/GROUP#b rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		{"UpdateItem of an attribute outside a KEYS_ONLY projection", Observation{Op: designs.UpdateItem,
			Writes: []Write{{Before: indexed, After: with(indexed, "D", s("short"))}}},
			"GSI1/GROUP#a rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		{"UpdateItem that removes a sparse GSI key", Observation{Op: designs.UpdateItem,
			Writes: []Write{{Before: indexed, After: with(indexed, "K", nil)}}},
			"GSI1/GROUP#a rcu=0 wcu=1; Slim/k1 rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		{"LSI entry added on the table's partition key", Observation{Op: designs.UpdateItem,
			Writes: []Write{{Before: small, After: with(small, "L", s("2026"))}}},
			"LSI1/ITEM#3 rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		// The larger image decides: 3,584 B before, 800 B after.
		{"UpdateItem that shrinks an item pays for the larger image", Observation{Op: designs.UpdateItem,
			Writes: []Write{{Before: big, After: with(big, "D", s("x"))}}},
			"main-table/ITEM#1 rcu=0 wcu=4"},
		{"failed conditional write pays for the stored item, no index", Observation{Op: designs.PutItem,
			Writes: []Write{{Before: with(big, "G", s("GROUP#a"), "GS", s("1")), After: with(big, "G", s("GROUP#a"), "GS", s("1")), Failed: true}}},
			"main-table/ITEM#1 rcu=0 wcu=4"},
		{"failed conditional create of a missing item pays one unit", Observation{Op: designs.PutItem,
			Writes: []Write{{Key: ddbitem.Item{"PK": s("NEW"), "SK": s("A")}, Failed: true}}},
			"main-table/NEW rcu=0 wcu=1"},
		{"DeleteItem of a missing item pays one unit", Observation{Op: designs.DeleteItem,
			Writes: []Write{{Key: ddbitem.Item{"PK": s("GONE"), "SK": s("A")}}}},
			"main-table/GONE rcu=0 wcu=1"},
		{"DeleteItem removes every index entry", Observation{Op: designs.DeleteItem, Writes: []Write{{Before: indexed}}},
			"GSI1/GROUP#a rcu=0 wcu=1; Slim/k1 rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=1"},
		// Two 500 B puts: 2 WCU each on the table (prepare and commit).
		{"TransactWriteItems of two items", Observation{Op: designs.TransactWriteItems,
			Writes: []Write{{After: sized("INV#1", "A", 500)}, {After: sized("INV#2", "A", 500)}}},
			"main-table/INV#1 rcu=0 wcu=2; main-table/INV#2 rcu=0 wcu=2"},
		{"ConditionCheck is a transactional write of the item read", Observation{Op: designs.TransactWriteItems,
			Writes: []Write{{Before: big, After: big}}},
			"main-table/ITEM#1 rcu=0 wcu=8"},
		{"index writes are not doubled in a transaction", Observation{Op: designs.TransactWriteItems,
			Writes: []Write{{After: indexed}}},
			"GSI1/GROUP#a rcu=0 wcu=1; Slim/k1 rcu=0 wcu=1; main-table/ITEM#3 rcu=0 wcu=2"},
	}
	for _, tt := range tests {
		tt.obs.At = t0
		got := render(Account(schema.ItemSchema(), tt.obs))
		if got != normalise(tt.want) {
			t.Errorf("%s:\nAccount(%s) = %s\nwant          %s", tt.name, tt.obs.Op, got, normalise(tt.want))
		}
	}
}

// normalise sorts a want string's charges and puts rcu before wcu, so
// table entries read naturally.
func normalise(want string) string {
	parts := strings.Split(want, "; ")
	for i, p := range parts {
		f := strings.Fields(p)
		slices.Sort(f[1:])
		parts[i] = strings.Join(f, " ")
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

func TestAccountTruncatesToTheSecond(t *testing.T) {
	cs := Account(schema.ItemSchema(), Observation{At: t0, Pattern: "AP-01", Op: designs.GetItem, Reads: []ddbitem.Item{sized("A", "1", 10)}})
	if len(cs) != 1 || !cs[0].At.Equal(t0.Truncate(time.Second)) || cs[0].Pattern != "AP-01" {
		t.Errorf("Account(GetItem at %v) = %+v, want one AP-01 charge at %v", t0, cs, t0.Truncate(time.Second))
	}
}

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
