package emulate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/findings"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// sdkRun is bench's client stack (the meter over the SDK with the emulator
// installed, attached to a capacity ledger) on DynamoDB's empty answer and
// a fake clock, each call one attempt: what the emulator decides and the
// model makes of it, without DynamoDB Local.
type sdkRun struct {
	e      *Emulator
	db     *meter.Client
	ledger *ledger.Ledger
	schema designs.Schema
	clock  *ddbtest.Clock
	start  time.Time
	calls  int64
}

// newSDKRun starts a run on schema s at scale 0.01 over 4 partitions: a
// partition takes 10 WCU/s.
func newSDKRun(s designs.Schema) *sdkRun {
	clock := ddbtest.NewClock()
	e := New(s, Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}, Now: clock.Now})
	opts := dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), HTTPClient: ddbtest.Answer(`{}`),
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", ""), Retryer: aws.NopRetryer{}}
	r := &sdkRun{e: e, db: meter.NewClient(dynamodb.New(opts, e.Install), s, meter.Clock(clock.Now)), ledger: ledger.NewLedger(s),
		schema: s, clock: clock, start: clock.Now()}
	Attach(e, r.db, func(_ context.Context, o pricing.Observation) []pricing.Charge { return r.ledger.Observe(o) })
	e.Enable()
	return r
}

// throttled reports whether err is the emulator's refusal.
func throttled(err error) bool {
	return err != nil && (strings.Contains(err.Error(), ExceptionThrottling) || strings.Contains(err.Error(), ExceptionProvisioned))
}

// put writes item, counted as a request of the mix; it reports whether
// the emulator throttled it.
func (r *sdkRun) put(t *testing.T, item map[string]types.AttributeValue) bool {
	t.Helper()
	r.calls++
	_, err := r.db.PutItem(designs.WithPattern(context.Background(), "AP-01"), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item})
	if err != nil && !throttled(err) {
		t.Fatalf("PutItem: %v", err)
	}
	return err != nil
}

// report is the capacity model of the run over secs seconds, with the
// emulator's denied calls, placement and settings, as bench builds it.
func (r *sdkRun) report(secs int) capacity.Report {
	m := capacity.Model{Schema: r.schema, Requests: r.calls, Duration: time.Duration(secs) * time.Second, Settings: r.e.Settings()}
	r.e.Inform(&m)
	rep := findings.Analyze(m, r.ledger)
	return rep
}

// forecast is the emulator's own forecast rate for the write side of the
// partition that holds key on the table.
func (r *sdkRun) forecast(t *testing.T, secs int, key string) float64 {
	t.Helper()
	part, _ := r.e.Placed(designs.MainTable, key)
	ps := r.e.Measured(r.calls, time.Duration(secs)*time.Second).Partitions
	i := slices.IndexFunc(ps, func(p PartitionThrottles) bool {
		return p.Target == designs.MainTable && p.Partition == part && p.Side == "write"
	})
	if i < 0 {
		t.Fatalf("the partition of %s refused nothing: %+v", key, ps)
	}
	return ps[i].ForecastRate
}

// sized is an item under partition key K of about kb KB: kb write units.
func sized(sk string, kb int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str("K"), "SK": str(sk), "Pad": str(strings.Repeat("x", kb*1024-100))}
}

// TestPutBackAtEachCallsOwnSize: a key's calls denied by a spent partition
// are put back at what each would have written, not at the size of a
// served call. Each second, a burst of first calls spends the partition's
// 10 WCU, and the rest of the burst is refused; the refused are larger
// than the served, or smaller. The capacity model's first throttle, and
// the emulator's own forecast for the partition, are then the rate at
// which every call of the mix, served or not, fills 10 WCU/s.
func TestPutBackAtEachCallsOwnSize(t *testing.T) {
	for _, tc := range []struct {
		name           string
		served, denied []int // the burst's sizes in KB, served then refused
	}{
		{"refused larger than served", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{4, 4}},
		{"refused smaller than served", []int{5, 5}, []int{1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const secs = 10
			r := newSDKRun(designs.Schema{PK: "PK", SK: "SK"})
			var units float64 // every call's write units, served or not
			for sec := range secs {
				for i, kb := range slices.Concat(tc.served, tc.denied) {
					units += float64(kb)
					if refused := r.put(t, sized(fmt.Sprintf("%d/%d", sec, i), kb)); refused != (i >= len(tc.served)) {
						t.Fatalf("second %d, call %d (%d KB): throttled %t, want the burst's first %d served and the rest refused",
							sec, i, kb, refused, len(tc.served))
					}
				}
				r.clock.Add(time.Second)
			}
			// 10 WCU/s filled by the mix's units per request.
			want := 10 / (units / float64(r.calls))
			rep := r.report(secs)
			if rep.Ceiling == nil || rep.Ceiling.Key != "K" {
				t.Fatalf("first throttle %+v, want K's partition", rep.Ceiling)
			}
			if got := rep.Ceiling.Rate; math.Abs(got-want) > want/100 {
				t.Errorf("the model's first throttle at %.3f requests/s, want %.3f (every call at its own size), within 1 %%", got, want)
			}
			if got := r.forecast(t, secs, "K"); math.Abs(got-want) > want/100 {
				t.Errorf("the emulator forecasts K's partition at %.3f requests/s, want %.3f (every call at its own size), within 1 %%", got, want)
			}
			if p := rep.PutBack; p == nil || p.Denied != int64(secs*len(tc.denied)) || p.Approximate != 0 {
				t.Errorf("PutBack = %+v, want the %d refused puts, none approximate", p, secs*len(tc.denied))
			}
			if i := slices.IndexFunc(rep.Findings, func(f string) bool { return strings.Contains(f, "put back approximately") }); i >= 0 {
				t.Errorf("finding %q, want none: every refused put was priced from its own request", rep.Findings[i])
			}
		})
	}
}

// TestFirstThrottleCountsValuesNeverServed: the model's first throttle is
// the emulator's forecast for the same partition, within 1 %, when some
// values on it were never served (as a create's new key, refused at its
// first call, never is): their denied calls have no row in the ledger, yet
// asked the partition for their units. Each second 10 puts of 1 KB under
// HOT spend its partition's 10 WCU, then 3 puts of 2 KB, each under a new
// value placed on HOT's partition, are refused.
func TestFirstThrottleCountsValuesNeverServed(t *testing.T) {
	const secs = 10
	r := newSDKRun(designs.Schema{PK: "PK", SK: "SK"})
	fresh := func(n int) []string {
		var out []string
		for i := 0; len(out) < n; i++ {
			if k := fmt.Sprintf("NEW%d", i); Placement(k, 4) == Placement("HOT", 4) {
				out = append(out, k)
			}
		}
		return out
	}(3 * secs)
	var units float64
	for sec := range secs {
		for i := range 10 {
			units++
			if r.put(t, map[string]types.AttributeValue{"PK": str("HOT"), "SK": str(fmt.Sprintf("%d/%d", sec, i))}) {
				t.Fatalf("second %d: HOT's put %d refused, want the partition's 10 WCU to serve 10", sec, i)
			}
		}
		for _, k := range fresh[3*sec : 3*sec+3] {
			units += 2
			item := sized("1", 2)
			item["PK"] = str(k)
			if !r.put(t, item) {
				t.Fatalf("second %d: the put under %s was served, want it refused on HOT's spent partition", sec, k)
			}
		}
		r.clock.Add(time.Second)
	}
	want := 10 / (units / float64(r.calls))
	emulated := r.forecast(t, secs, "HOT")
	if math.Abs(emulated-want) > want/100 {
		t.Errorf("the emulator forecasts HOT's partition at %.3f requests/s, want %.3f, within 1 %%", emulated, want)
	}
	rep := r.report(secs)
	if rep.Ceiling == nil || rep.Ceiling.Key != "HOT" {
		t.Fatalf("first throttle %+v, want HOT's partition", rep.Ceiling)
	}
	if got := rep.Ceiling.Rate; math.Abs(got-emulated) > emulated/100 {
		t.Errorf("the model's first throttle at %.3f requests/s, the emulator's forecast for the partition %.3f: want them within 1 %%", got, emulated)
	}
}

// TestPutBackSaysWhenApproximate: a Query's size is not known before it
// runs, so a refused one is put back at what the value's calls lately
// consumed, and the report says how many were. Each second 80 Queries of
// an empty collection (half a unit each, eventually consistent) on a
// partition of 30 RCU/s: 60 served, 20 refused.
func TestPutBackSaysWhenApproximate(t *testing.T) {
	const secs = 3
	r := newSDKRun(designs.Schema{PK: "PK", SK: "SK"})
	ctx := designs.WithPattern(context.Background(), "AP-03")
	refused := 0
	for range secs {
		for range 80 {
			r.calls++
			_, err := r.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("t"), KeyConditionExpression: aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("K")}})
			switch {
			case throttled(err):
				refused++
			case err != nil:
				t.Fatalf("Query: %v", err)
			}
		}
		r.clock.Add(time.Second)
	}
	if refused != 20*secs {
		t.Fatalf("%d Queries refused, want 20 a second", refused)
	}
	rep := r.report(secs)
	if p := rep.PutBack; p == nil || p.Denied != int64(refused) || p.Approximate != int64(refused) {
		t.Errorf("PutBack = %+v, want the %d refused Queries, all approximate", p, refused)
	}
	if !slices.ContainsFunc(rep.Findings, func(f string) bool {
		return strings.Contains(f, "The demand of 60 of the 60 calls the limits denied") && strings.Contains(f, "put back approximately")
	}) {
		t.Errorf("findings %q, want one saying the 60 refused Queries were put back approximately", rep.Findings)
	}
	if got, want := rep.Ceiling.Rate, 30/(0.5*80/80); math.Abs(got-want) > want/100 {
		t.Errorf("first throttle at %.2f requests/s, want %.2f: each refused Query at the half unit its value's calls cost", got, want)
	}
}
