package capacity

import (
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

func TestLedgerConcurrentObserve(t *testing.T) {
	l := ledger.NewLedger(schema)
	const workers, calls = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				at := t0.Add(time.Duration(i%5) * time.Second)
				l.Observe(pricing.Observation{At: at, Pattern: "AP-01", Op: designs.PutItem,
					Writes: []pricing.Write{{After: sized("HOT", string(rune('a'+w)), 1000)}}})
			}
		})
	}
	wg.Wait()
	r := Model{Schema: schema, Requests: workers * calls, Duration: 5 * time.Second}.Analyze(l)
	if len(r.Patterns) != 1 || r.Patterns[0].Calls != workers*calls || r.Patterns[0].WCU != workers*calls {
		t.Errorf("Analyze().Patterns = %+v, want AP-01 with %d calls and %d WCU", r.Patterns, workers*calls, workers*calls)
	}
	if len(r.Hot) != 1 || r.Hot[0].PeakWCU != workers*calls/5 {
		t.Errorf("Analyze().Hot = %+v, want HOT peaking at %d WCU/s", r.Hot, workers*calls/5)
	}
}

func TestLedgerKeepsEachOperationOfAPattern(t *testing.T) {
	// A pattern that reads, then writes in a transaction: Local agrees on
	// the read and not on the transaction, and the disagreement names the
	// transaction, not whichever call came first.
	l := ledger.NewLedger(schema)
	read := pricing.Observation{At: t0, Pattern: "AP-04", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("INV#1", "A", 500)},
		Local: []types.ConsumedCapacity{{CapacityUnits: aws.Float64(1)}}}
	tx := pricing.Observation{At: t0, Pattern: "AP-04", Op: designs.TransactWriteItems,
		Writes: []pricing.Write{{After: sized("INV#1", "A", 500)}, {After: sized("INV#2", "A", 500)}},
		Local:  []types.ConsumedCapacity{{CapacityUnits: aws.Float64(2), Table: &types.Capacity{CapacityUnits: aws.Float64(2)}}}}
	l.Observe(read)
	l.Observe(tx)
	r := Model{Schema: schema, Requests: 1, Duration: time.Second}.Analyze(l)
	if len(r.Disagreements) != 1 || r.Disagreements[0].Op != designs.TransactWriteItems {
		t.Errorf("Analyze().Disagreements = %+v, want one, on AP-04's TransactWriteItems", r.Disagreements)
	}
	if len(r.Patterns) != 2 || r.Patterns[0].Op != designs.GetItem || r.Patterns[1].Op != designs.TransactWriteItems {
		t.Errorf("Analyze().Patterns = %+v, want AP-04's GetItem and TransactWriteItems rows", r.Patterns)
	}
}

func TestLedgerComparesWithLocal(t *testing.T) {
	l := ledger.NewLedger(schema)
	// DynamoDB Local 3.x reports a two-item TransactWriteItems as 2 units; AWS charges 4.
	tx := pricing.Observation{At: t0, Pattern: "AP-03", Op: designs.TransactWriteItems,
		Writes: []pricing.Write{{After: sized("INV#1", "A", 500)}, {After: sized("INV#2", "A", 500)}},
		Local:  []types.ConsumedCapacity{{CapacityUnits: aws.Float64(2), Table: &types.Capacity{CapacityUnits: aws.Float64(2)}}}}
	get := pricing.Observation{At: t0, Pattern: "AP-05", Op: designs.GetItem, Reads: []ddbitem.Item{sized("INV#1", "A", 500)},
		Local: []types.ConsumedCapacity{{CapacityUnits: aws.Float64(0.5)}}}
	for range 3 {
		l.Observe(tx)
		l.Observe(get)
	}
	r := Model{Schema: schema, Requests: 6, Duration: time.Second}.Analyze(l)
	want := ledger.Disagreement{PatternOp: ledger.PatternOp{Pattern: "AP-03", Op: designs.TransactWriteItems}, Target: designs.MainTable,
		Calls: 3, Differing: 3, Units: 12, LocalUnits: 6, ExampleUnits: 4, ExampleLocal: 2}
	if len(r.Disagreements) != 1 || r.Disagreements[0] != want {
		t.Errorf("Analyze().Disagreements = %+v, want only %+v", r.Disagreements, want)
	}
	for _, p := range r.Patterns {
		wantLocal := map[designs.PatternID]float64{"AP-03": 6, "AP-05": 1.5}[p.Pattern]
		if p.Local != wantLocal || p.LocalCalls != 3 {
			t.Errorf("Analyze().Patterns[%s] Local = %g over %d calls, want %g over 3", p.Pattern, p.Local, p.LocalCalls, wantLocal)
		}
	}
}

// BenchmarkObserve measures the ledger's cost per call on the engine's
// path: an update that moves a GSI entry.
func BenchmarkObserve(b *testing.B) {
	l := ledger.NewLedger(schema)
	before := with(sized("ITEM#1", "A", 800), "G", s("GROUP#a"), "GS", s("1"), "K", s("k1"))
	o := pricing.Observation{At: t0, Pattern: "AP-01", Op: designs.UpdateItem,
		Writes: []pricing.Write{{Before: before, After: with(before, "G", s("GROUP#b"))}}}
	for b.Loop() {
		l.Observe(o)
	}
}

// TestPatternGrowth: a pattern's Grown is the bytes its writes added to
// the table, net: an item created counts whole, an item enlarged by what
// it gained, a delete takes its bytes back, a failed write adds nothing;
// and a merged ledger keeps it.
func TestPatternGrowth(t *testing.T) {
	l := ledger.NewLedger(schema)
	at := time.Unix(1_800_000_000, 0)
	l.Observe(pricing.Observation{At: at, Pattern: "AP-01", Op: "PutItem", Writes: []pricing.Write{{After: sized("A", "1", 500)}}})
	l.Observe(pricing.Observation{At: at, Pattern: "AP-01", Op: "UpdateItem", Writes: []pricing.Write{{Before: sized("A", "1", 500), After: sized("A", "1", 800)}}})
	l.Observe(pricing.Observation{At: at, Pattern: "AP-01", Op: "UpdateItem", Writes: []pricing.Write{{Before: sized("A", "1", 800), After: sized("A", "1", 800), Failed: true, Attempted: sized("A", "1", 2000)}}})
	l.Observe(pricing.Observation{At: at, Pattern: "AP-02", Op: "DeleteItem", Writes: []pricing.Write{{Before: sized("B", "1", 300)}}})
	grown := func(r Report) map[designs.PatternID]int64 {
		g := map[designs.PatternID]int64{}
		for _, p := range r.Patterns {
			g[p.Pattern] += p.Grown
		}
		return g
	}
	m := Model{Schema: schema, Requests: 4, Duration: time.Second}
	if g := grown(m.Analyze(l)); g["AP-01"] != 800 || g["AP-02"] != -300 {
		t.Errorf("grown %v, want AP-01 800 and AP-02 -300", g)
	}
	merged, err := ledger.MergeLedgers(schema, l.Export())
	if err != nil {
		t.Fatal(err)
	}
	if g := grown(m.Analyze(merged)); g["AP-01"] != 800 {
		t.Errorf("merged ledger grown %v, want AP-01 800", g)
	}
}
