package gate_test

import (
	"fmt"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/gate"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
)

// Two runs of one pattern compared, as report compare prints them: a
// write grew from 2 to 3 units a call, while the latencies moved on calls
// alike ("~", not significant). A --fail-on rule on wcu names the breach;
// one on p99 does not fire. The runs are built here; ReadRun reads them
// from report folders.
func ExampleCompare() {
	base, next := exampleRun(20, time.Millisecond), exampleRun(30, time.Millisecond+50*time.Microsecond)
	rows := gate.Compare(base, next)
	for _, r := range rows {
		fmt.Printf("%-5s %-10s %-9s %-9s %s\n", r.Pattern, r.Figure, r.Format(r.Base), r.Format(r.New), r.ChangeText())
	}
	rules, err := gate.ParseFailOn("wcu>0%,p99>20%")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range gate.Breaches(rows, rules) {
		fmt.Println("✗", b)
	}
	// Output:
	// AP-01 rcu        0         0         =
	// AP-01 wcu        2         3         +50.0%
	// AP-01 cost       $1.25/M   $1.875/M  +50.0%
	// AP-01 bytes      0         0         =
	// AP-01 p50        1.00ms    1.05ms    ~ (p=0.73)
	// AP-01 p99        1.10ms    1.16ms    ~ (p=0.73)
	// AP-01 throughput 10.0/s    10.0/s    =
	// AP-01 throttled  0%        0%        =
	// AP-01 conflicts  0%        0%        =
	// AP-01 refused    0%        0%        =
	// mix   headroom   30x       30x       =
	// mix   cost       $1.25/M   $1.875/M  +50.0%
	// mix   throughput 10.0/s    10.0/s    =
	// mix   errors     0%        0%        =
	// mix   refused    0%        0%        =
	// ✗ AP-01 wcu: 2 → 3 (+50.0%), over --fail-on wcu>0%
}

// exampleRun is a run of 10 calls of AP-01, each a PutItem of wcu/10
// units, its calls taking lat and 0.1 ms more each, up to lat + 0.9 ms.
func exampleRun(wcu float64, lat time.Duration) gate.Run {
	out := bench.Outcome{Outcome: engine.Outcome{Scenario: "shop/browse", Started: time.Unix(1_800_000_000, 0)}}
	m := vegeta.Metrics{Requests: 10, Success: 1, Throughput: 10, Latencies: vegeta.LatencyMetrics{P50: lat, P99: lat + lat/10}}
	out.Total = m
	out.Patterns = []engine.PatternMetrics{{Pattern: designs.Pattern{ID: "AP-01"}, Metrics: m}}
	out.Capacity = capacity.Report{Billing: "on-demand", MeasuredRate: 10,
		Patterns: []ledger.PatternUsage{{PatternOp: ledger.PatternOp{Pattern: "AP-01", Op: "PutItem"}, WCU: wcu}},
		Cost:     capacity.Cost{WriteRequestUnit: 0.625, OnDemand: wcu / 10 * 0.625},
		Ceiling:  &capacity.Ceiling{Rate: 300},
	}
	calls := make([]float64, 10)
	for i := range calls {
		calls[i] = float64(lat + time.Duration(i)*100*time.Microsecond)
	}
	return gate.Run{Out: out, Latencies: map[designs.PatternID][]float64{"AP-01": calls}}
}
