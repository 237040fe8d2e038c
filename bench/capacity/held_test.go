package capacity

import (
	"reflect"
	"testing"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// TestHeldRecordsOnlyWhatTheRunCounted: a pattern call's charges, held,
// reach the ledger as Observe would have put them there when the run
// counted the call, and not at all when it did not; the charges come back
// at once either way, for the emulator to debit.
func TestHeldRecordsOnlyWhatTheRunCounted(t *testing.T) {
	put := pricing.Observation{At: t0, Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	get := pricing.Observation{At: t0, Pattern: "AP-01", Op: designs.GetItem, Reads: []ddbitem.Item{sized("HOT", "A", 1000)}}
	want := ledger.NewLedger(schema)
	want.Observe(put)
	want.Observe(get)

	l := ledger.NewLedger(schema)
	counted, cut := l.Hold(), l.Hold()
	for _, h := range []*ledger.Held{counted, cut} {
		if c := h.Observe(put); len(c) == 0 || c[0].WCU != 1 {
			t.Fatalf("a held put charged %+v, want 1 WCU at once", c)
		}
		h.Observe(get)
	}
	cut.End(false)
	if got := (Model{Schema: schema}).Analyze(l); !reflect.DeepEqual(got, (Model{Schema: schema}).Analyze(ledger.NewLedger(schema))) {
		t.Errorf("a call the run did not count left %+v in the ledger, want nothing", got.Patterns)
	}
	counted.End(true)
	if got, w := (Model{Schema: schema}).Analyze(l), (Model{Schema: schema}).Analyze(want); !reflect.DeepEqual(got, w) {
		t.Errorf("a counted call's charges: %+v, want as observed: %+v", got.Patterns, w.Patterns)
	}
}
