package capacity

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
)

// The holds on one event run one at a time, each holding the event's item
// for the hold its scenario declares: at 20 ms, 50 holds a second, which the mix (half
// holds) reaches at 100 requests/s, below the partition (8 WCU a hold,
// 1,000 WCU/s: 250 requests/s), the event item alone (2 WCU a hold: 1,000)
// and the table's quota. The first limit names it (the first finding words it,
// with the pattern, the hold and what to change), marked inferred.
func TestFirstLimitIsTheItemEveryTransactionWrites(t *testing.T) {
	m := Model{Schema: schema, Duration: 10 * time.Second, PatternHold: map[designs.PatternID]time.Duration{"AP-01": 20 * time.Millisecond, "AP-02": time.Millisecond},
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
	if f.Source.Basis != rules.BasisInferred || !strings.Contains(f.Source.Mark(), "conflict-ceiling") {
		t.Errorf("conflict limit rests on %+v, want inferred: conflict-ceiling", f.Source)
	}
	if p := r.LimitsInOrder[1]; p.Key != "EVENT#1" || !near(p.Rate, 250) {
		t.Errorf("second limit %+v, want the event's partition at 250 requests/s", p)
	}
	if it := r.LimitsInOrder[2]; it.Item != "EVENT#1 / EVENT" || it.Pattern != "AP-01" || !near(it.Rate, 1000) || it.UnitsPerCall != 2 || !it.Source.Documented() {
		t.Errorf("item limit %+v, want the event item at 1,000 requests/s, 2 WCU a hold, documented", it)
	}

	// Holds a conflict cancelled never reached the ledger, yet asked for
	// the item: with twice the holds made that the ledger saw, the item is
	// full at half the rate.
	m.PatternCalls = map[designs.PatternID]int64{"AP-01": 200, "AP-02": 100}
	if r := analyze(m, onSale()...); !near(r.FirstLimit.Rate, 50) || !near(r.FirstLimit.PatternRate, 50) {
		t.Errorf("with the cancelled holds: first limit %+v, want 50 requests/s and 50 holds a second", r.FirstLimit)
	}

	// A scenario's own hold for every pattern is used as a pattern's.
	m.PatternHold, m.TransactionHold = nil, 20*time.Millisecond
	if r := analyze(m, onSale()...); !near(r.FirstLimit.Rate, 50) || !r.FirstLimit.HoldDeclared {
		t.Errorf("with the scenario's hold: first limit %+v, want 50 requests/s, declared", r.FirstLimit)
	}
}

// The conflict limit is a forecast of real DynamoDB, so the test bed's
// speed does not move it: one ledger, with the test bed's calls taking
// 5 ms (a quiet machine), 600 ms (a loaded one) or not measured (a run
// whose workers fell behind), gives one limit, on the hold measured on the
// service: 1 ÷ (½ hold a request × 25.3 ms) = 79.1 requests/s. The test
// bed's hold is kept beside it (the first finding shows it) as
// test_bed_hold_seconds.
func TestConflictLimitDoesNotMoveWithTheTestBed(t *testing.T) {
	var first *Limit
	for _, bed := range []time.Duration{5 * time.Millisecond, 600 * time.Millisecond, 0} {
		m := Model{Schema: schema, Duration: 10 * time.Second, PatternCalls: map[designs.PatternID]int64{"AP-01": 100, "AP-02": 100}}
		if bed > 0 {
			m.TestBedHold = map[designs.PatternID]time.Duration{"AP-01": bed, "AP-02": bed / 5}
		}
		r := analyze(m, onSale()...)
		l := r.FirstLimit
		if l == nil || l.Kind != LimitConflict || l.Item != "EVENT#1 / EVENT" || l.Key != "EVENT#1" || !near(l.Rate, 1/(0.5*0.0253)) ||
			l.HoldSeconds != rules.DefaultTransactionHold.Seconds() || l.HoldDeclared || l.TestBedHoldSeconds != bed.Seconds() {
			t.Fatalf("test bed holding %s: first limit %+v, want the event item's transactions at 79.1 requests/s, each holding it 25.3 ms, the test bed's %s beside it", bed, l, bed)
		}
		if first == nil {
			first = l
		} else if l.Kind != first.Kind || l.Key != first.Key || l.Rate != first.Rate {
			t.Errorf("test bed holding %s: first limit %s %s at %g, want %s %s at %g as on a quiet machine", bed, l.Kind, l.Key, l.Rate, first.Kind, first.Key, first.Rate)
		}
		if !strings.Contains(l.Source.Mark(), "conflict-ceiling") || !slices.Contains(l.Source.Rules, "transaction-hold") {
			t.Errorf("conflict limit rests on %+v, want conflict-ceiling and transaction-hold", l.Source)
		}
	}
}

// A loaded test bed meets more conflicts, so fewer of the same mix's
// transactions reach the ledger: with the emulator's count of those it
// denied, the item's limit is the same whether all 100 holds were served,
// 20 of them, or none (every one given up, as at load 19 on two cores).
func TestConflictLimitCountsTheDeniedTransactions(t *testing.T) {
	limit := func(served int) *Limit {
		l := ledger.NewLedger(schema)
		holds := 0
		for i, o := range onSale() {
			if o.Pattern == "AP-01" {
				if holds++; holds > served {
					continue
				}
			}
			o.At = t0.Add(time.Duration(i%10) * time.Second)
			l.Observe(o)
		}
		m := Model{Schema: schema, Duration: 10 * time.Second, Requests: 200,
			PatternCalls: map[designs.PatternID]int64{"AP-01": 100, "AP-02": 100},
			TxDenied:     map[string]map[designs.PatternID]int64{"EVENT#1 / EVENT": {"AP-01": int64(100 - served)}}}
		return m.Analyze(l).FirstLimit
	}
	all := limit(100)
	for _, served := range []int{100, 20, 0} {
		l := limit(served)
		if l == nil || l.Kind != LimitConflict || l.Item != all.Item || l.Pattern != "AP-01" || !near(l.Rate, all.Rate) || !near(l.Rate, 1/(0.5*0.0253)) {
			t.Errorf("%d of 100 holds served: first limit %+v, want the event item's at %.1f requests/s as with all served", served, l, all.Rate)
		}
	}
}

// Which calls end in the measured window depends on the machine: a loaded
// one ends fewer of its slow calls. With each pattern's share of the mix
// (its weight), the item's limit is the same whether the window held as
// many reads as holds or half as many.
func TestConflictLimitTakesTheMixFromItsWeights(t *testing.T) {
	limit := func(gets int) *Limit {
		l := ledger.NewLedger(schema)
		n := 0
		for i, o := range onSale() {
			if o.Pattern == "AP-02" {
				if n++; n > gets {
					continue
				}
			}
			o.At = t0.Add(time.Duration(i%10) * time.Second)
			l.Observe(o)
		}
		m := Model{Schema: schema, Duration: 10 * time.Second, Requests: int64(100 + gets),
			PatternCalls: map[designs.PatternID]int64{"AP-01": 100, "AP-02": int64(gets)},
			PatternShare: map[designs.PatternID]float64{"AP-01": 0.5, "AP-02": 0.5}}
		return m.Analyze(l).FirstLimit
	}
	for _, gets := range []int{100, 50} {
		if l := limit(gets); l == nil || l.Kind != LimitConflict || !near(l.Rate, 1/(0.5*0.0253)) || !near(l.PatternRate*l.HoldSeconds, 1) {
			t.Errorf("a window of 100 holds and %d reads: first limit %+v, want the event item's at 79.1 requests/s, as the mix's weights say", gets, l)
		}
	}
}
