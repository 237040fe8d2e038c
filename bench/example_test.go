package bench_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/gate"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/scenarios"
)

// ExampleRun runs a design's default scenario on DynamoDB Local, briefly,
// with DynamoDB's limits off, and prints what each pattern would cost on
// DynamoDB a call: units computed from the items' sizes by AWS's rules.
// The run's seed (engine.Seed, 1 by default) draws the same patterns, keys
// and items every time, and one worker makes the calls one after another
// in that order, so each call meets the same table and the figures do not
// change from run to run. A longer run at the scenario's own rate and pool
// gives the baseline's averages (bench/baseline.json).
func ExampleRun() {
	db, err := ddbtest.ExampleDB()
	if err != nil {
		fmt.Println(err)
		return
	}
	sc, _ := scenarios.Default("invoicing")
	sc.Pool = 20 // clients seeded, of the scenario's 1,500
	// 20 calls a second for 1 s: the 19 calls due before the window ends.
	sc.Pacer, sc.Duration = vegeta.ConstantPacer{Freq: 20, Per: time.Second}, time.Second
	out, err := bench.Run(context.Background(), db, sc,
		engine.Warmup(0),            // every call is measured, none changes the table unseen
		engine.Workers(1),           // one call at a time, in the order drawn
		engine.Drain(time.Minute),   // a slow machine still finishes every due call
		engine.Progress(io.Discard)) // no progress lines
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d calls\n", out.Scenario, out.Total.Requests)
	figs := gate.PatternFigures(out)
	for _, id := range slices.Sorted(maps.Keys(figs)) {
		f := figs[id]
		p, _ := sc.Design.Pattern(id)
		fmt.Printf("%s %-31s %-18s calls %d, RCU %g, WCU %g a call\n", id, p.Name, p.Op, f.Calls, f.RCU, f.WCU)
	}
	// Output:
	// invoicing/month-end: 19 calls
	// AP-02 create client                   TransactWriteItems calls 1, RCU 0, WCU 4 a call
	// AP-03 create invoice                  TransactWriteItems calls 6, RCU 0, WCU 17 a call
	// AP-04 update invoice                  TransactWriteItems calls 1, RCU 1, WCU 15 a call
	// AP-05 update client details           TransactWriteItems calls 2, RCU 1, WCU 2 a call
	// AP-06 view client and recent invoices Query              calls 5, RCU 0.5, WCU 0 a call
	// AP-07 view invoice and line items     Query              calls 4, RCU 0.5, WCU 0 a call
}
