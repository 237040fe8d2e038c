package capacity

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// onSale is an on-sale moment of a ticketing design: each hold (AP-01) is
// one transaction that takes three seats and counts them off the event's
// item, so every hold writes that one item; the reads (AP-02) get it.
// Every item is under 1 KB: two units in a transaction.
func onSale() []pricing.Observation {
	event := sized("EVENT#1", "EVENT", 300)
	var calls []pricing.Observation
	for i := range 100 {
		hold := pricing.Observation{Pattern: "AP-01", Op: designs.TransactWriteItems, Writes: []pricing.Write{{Before: event, After: event}}}
		for j := range 3 {
			seat := sized("EVENT#1", "SEAT#"+string(rune('a'+(3*i+j)%26))+string(rune('a'+(3*i+j)/26)), 300)
			hold.Writes = append(hold.Writes, pricing.Write{Before: seat, After: seat})
		}
		calls = append(calls, hold, pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{event}})
	}
	return calls
}

// The holds on one event run one at a time, each holding the event's item
// for its pattern's p50: at 20 ms, 50 holds a second, which the mix (half
// holds) reaches at 100 requests/s, below the partition (8 WCU a hold,
// 1,000 WCU/s: 250 requests/s), the event item alone (2 WCU a hold: 1,000)
// and the table's quota. The first limit and the first finding name it,
// with the pattern, the hold and what to change, marked inferred.
func TestFirstLimitIsTheItemEveryTransactionWrites(t *testing.T) {
	m := Model{Schema: schema, Duration: 10 * time.Second, HoldTime: map[designs.PatternID]time.Duration{"AP-01": 20 * time.Millisecond, "AP-02": time.Millisecond},
		ItemConflicts: map[string]int64{"EVENT#1 / EVENT": 826}}
	r := analyze(m, onSale()...)
	var kinds []string
	for _, l := range r.LimitsInOrder {
		kinds = append(kinds, l.Kind)
	}
	if strings.Join(kinds, " ") != "conflict partition item budget" {
		t.Fatalf("limits in order %q, want conflict, partition, item, budget: %+v", kinds, r.LimitsInOrder)
	}
	f := r.FirstLimit
	if f == nil || f.Item != "EVENT#1 / EVENT" || f.Pattern != "AP-01" || !near(f.Rate, 100) || !near(f.PatternRate, 50) || f.HoldSeconds != 0.02 || f.Conflicts != 826 {
		t.Errorf("first limit %+v, want the event item's transactions at 100 requests/s, 50 holds a second of 20 ms, 826 conflicts", f)
	}
	if f.Source.Basis != basisInferred || !strings.Contains(f.Source.Mark(), "conflict-ceiling") {
		t.Errorf("conflict limit rests on %+v, want inferred: conflict-ceiling", f.Source)
	}
	if p := r.LimitsInOrder[1]; p.Key != "EVENT#1" || !near(p.Rate, 250) {
		t.Errorf("second limit %+v, want the event's partition at 250 requests/s", p)
	}
	if it := r.LimitsInOrder[2]; it.Item != "EVENT#1 / EVENT" || it.Pattern != "AP-01" || !near(it.Rate, 1000) || it.UnitsPerCall != 2 || !it.Source.Documented() {
		t.Errorf("item limit %+v, want the event item at 1,000 requests/s, 2 WCU a hold, documented", it)
	}
	want := `What stops this design first is the transactions on item "EVENT#1 / EVENT": the transactions that write it run one at a time, each AP-01 call holding it about 20.0 ms, so it takes about 50 of them a second, at 100 requests/s of this mix (5× the measured 20 requests/s) [inferred: conflict-ceiling]; DynamoDB cancels the transactions that meet there with reason TransactionConflict, which CloudWatch counts in TransactionConflict; the run met 826 item-level conflicts on it; to lift it, shard the counter`
	if !strings.HasPrefix(r.Findings[0], want) {
		t.Errorf("first finding:\n%s\nwant it to begin:\n%s", r.Findings[0], want)
	}
	if !strings.HasPrefix(r.Findings[1], `The limits after it, in order: the partition of key "EVENT#1" of the table at 250 requests/s, mostly AP-01 (TableWriteKeyRangeThroughputExceeded) [inferred:`) {
		t.Errorf("second finding: %s", r.Findings[1])
	}
	if _, bad := findings(r); len(bad) > 0 {
		t.Errorf("findings' faults: %q", bad)
	}

	// Holds a conflict cancelled never reached the ledger, yet asked for
	// the item: with twice the holds made that the ledger saw, the item is
	// full at half the rate.
	m.PatternCalls = map[designs.PatternID]int64{"AP-01": 200, "AP-02": 100}
	if r := analyze(m, onSale()...); !near(r.FirstLimit.Rate, 50) || !near(r.FirstLimit.PatternRate, 50) {
		t.Errorf("with the cancelled holds: first limit %+v, want 50 requests/s and 50 holds a second", r.FirstLimit)
	}

	// Without the calls' latencies no conflict limit is given: the
	// partition comes first.
	m.HoldTime = nil
	if r := analyze(m, onSale()...); r.FirstLimit == nil || r.FirstLimit.Kind != LimitPartition {
		t.Errorf("without hold times the first limit is %+v, want the partition", r.FirstLimit)
	}
}
