package gate

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// lostCondition is a conditional write DynamoDB refused, as the SDK
// returns it.
var lostCondition = &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "UpdateItem", Err: &types.ConditionalCheckFailedException{}}

// refusingRun is run() with its calls tallied as the engine tallies them,
// each classed by classify: AP-01's 10 answered, AP-02's 4 of which one
// lost its condition.
func refusingRun(classify func(error) (uint16, string)) bench.Outcome {
	out := run()
	tally := engine.NewTally("AP-01", "AP-02")
	add := func(p string, err error, n int) {
		for i := range n {
			code, class := classify(err)
			tally.Add(&vegeta.Result{Attack: p, Seq: uint64(i), Code: code, Error: class,
				Timestamp: time.Unix(1_800_000_000, int64(i)*int64(time.Millisecond)), Latency: time.Millisecond})
		}
	}
	add("AP-01", nil, 10)
	add("AP-02", nil, 3)
	add("AP-02", lostCondition, 1)
	out.Total = tally.Total()
	out.Patterns[0].Metrics, out.Patterns[1].Metrics = tally.Pattern("AP-01"), tally.Pattern("AP-02")
	return out
}

// A refusal is not an error: `errors < 1%` holds on a run whose only
// failed calls lost their condition, and refused is a figure of its own,
// one verdict live and after the run.
func TestRefusedIsAFigureApartFromErrors(t *testing.T) {
	out := refusingRun(engine.Classify)
	for _, c := range []struct {
		expr string
		want float64
		pass bool
	}{
		{"errors < 1%", 0, true},
		{"errors(AP-02) < 1%", 0, true},
		{"refused(AP-02) < 30%", 0.25, true},
		{"refused(AP-02) < 20% abort", 0.25, false},
		{"refused < 5% abort", 1.0 / 14, false},
		{"refused(AP-01) == 0%", 0, true},
	} {
		th := must(t, c.expr)
		got, why := Measure(out, th)
		if why != "" || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: measured %v (%s), want %v", c.expr, got, why, c.want)
		}
		if held := Evaluate(out, []threshold.Threshold{th})[0].Pass; held != c.pass {
			t.Errorf("%s: held %v, want %v", c.expr, held, c.pass)
		}
		if !th.Abort {
			continue
		}
		if stop := Live([]threshold.Threshold{th})(out.Outcome); (stop == "") != c.pass {
			t.Errorf("%s: the live check says %q: want it to stop exactly when the threshold fails", c.expr, stop)
		}
	}
}

// A scenario that counts refusals as errors (engine.ClassifyAsError) gets
// them in errors, and none refused.
func TestRefusalsCountedAsErrorsAreErrors(t *testing.T) {
	out := refusingRun(engine.ClassifyAsError)
	for expr, want := range map[string]float64{"errors(AP-02) < 1%": 0.25, "refused(AP-02) < 1%": 0} {
		if got, why := Measure(out, must(t, expr)); why != "" || math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: measured %v (%s), want %v", expr, got, why, want)
		}
	}
}

// report compare shows refused beside errors: a run whose refusals were
// errors against one where they are outcomes moves them from one figure
// to the other, and only a rule on refused fails on it.
func TestCompareShowsRefusedBesideErrors(t *testing.T) {
	base := Run{Out: refusingRun(engine.ClassifyAsError), Latencies: map[designs.PatternID][]float64{}}
	next := Run{Out: refusingRun(engine.Classify), Latencies: map[designs.PatternID][]float64{}}
	rows := Compare(base, next)
	for _, c := range []struct {
		pattern, figure string
		base, next      float64
	}{
		{"mix", "errors", 1.0 / 14, 0},
		{"mix", "refused", 0, 1.0 / 14},
		{"AP-02", "refused", 0, 0.25},
		{"AP-01", "refused", 0, 0},
	} {
		r := row(rows, c.pattern, c.figure)
		if r.Figure == "" || math.Abs(r.Base-c.base) > 1e-12 || math.Abs(r.New-c.next) > 1e-12 {
			t.Errorf("%s %s: %+v, want %v → %v", c.pattern, c.figure, r, c.base, c.next)
		}
	}
	if r := row(rows, "AP-02", "refused"); r.Format(r.New) != "25%" {
		t.Errorf("AP-02 refused written %q, want 25%%", r.Format(r.New))
	}
	rules, err := ParseFailOn("errors>0%, refused>0%")
	if err != nil {
		t.Fatal(err)
	}
	bad := Breaches(rows, rules)
	if len(bad) != 2 || !strings.HasPrefix(bad[0], "AP-02 refused: 0% → 25%") || !strings.HasPrefix(bad[1], "mix refused") {
		t.Errorf("breaches %q, want AP-02's and the mix's refused alone", bad)
	}
}
