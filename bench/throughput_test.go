package bench_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/workload"
)

// Throughput comparison settings: the same concurrency and the same calls
// for the plain loop and for bench.
const (
	throughputItems   = 1000
	throughputWorkers = 16
	throughputRun     = 5 * time.Second
)

// readDesign is one GetItem pattern on the specs' schema: what the plain
// loop calls, as a catalog entry bench can pace.
var readDesign = designs.Design{Name: "read", Schema: schema,
	Patterns: []designs.Pattern{{ID: "AP-01", Name: "get item", Op: designs.GetItem, Index: designs.MainTable}}}

// getter seeds items 0…n-1 and reads the key-th, uniformly drawn.
type getter struct {
	db    designs.DB
	table string
}

func itemKey(i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s("ITEM#" + fmt.Sprint(i)), "SK": s("A")}
}

func (g getter) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	for i := range n {
		it := itemKey(i)
		it["Name"] = s(fmt.Sprintf("item %d with a name of some length", i))
		if _, err := g.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(g.table), Item: it}); err != nil {
			return err
		}
		progress(i+1, n)
	}
	return nil
}

func (g getter) Call(ctx context.Context, _ designs.PatternID, key int, _ *rand.Rand) error {
	_, err := g.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(g.table), Key: itemKey(key)})
	return err
}

// BenchmarkThroughput compares, on the DynamoDB Local that
// AWS_ENDPOINT_URL_DYNAMODB names, the GetItem throughput of a plain loop
// of the SDK with that of bench (instrumented client, capacity ledger,
// closed-loop workers), with DynamoDB's limits off and emulated (at a rate
// no partition refuses), at the same concurrency; each runs twice, in turn.
// Run it alone: go test ./bench -run '^$' -bench Throughput -benchtime 1x
func BenchmarkThroughput(b *testing.B) {
	env, err := testbed.LoadEnv()
	if err != nil || env.Endpoint == "" {
		b.Skip("set AWS_ENDPOINT_URL_DYNAMODB to a DynamoDB Local to compare throughputs")
	}
	ctx := context.Background()
	db := testbed.Client(env.Endpoint)
	table := designs.TableName("read", "plain")
	if err := designs.CreateTable(ctx, db, schema, table); err != nil {
		b.Fatal(err)
	}
	defer designs.DeleteTable(ctx, db, table)
	if err := (getter{db, table}).Seed(ctx, throughputItems, func(int, int) {}); err != nil {
		b.Fatal(err)
	}
	sc := workload.Scenario{Name: "read/throughput", Design: readDesign, Pool: throughputItems,
		Pacer: vegeta.ConstantPacer{}, Duration: throughputRun, // no rate: back to back
		Mix:    []workload.Step{{Pattern: "AP-01", Weight: 1}},
		Driver: func(db designs.DB, table string, _ int64) workload.Driver { return getter{db, table} }}

	var plain, measured, limited []float64
	rate := func(lim bench.Limits) float64 {
		out, err := bench.RunLimited(ctx, db, sc, lim, engine.Workers(throughputWorkers), engine.Warmup(time.Second), engine.Progress(io.Discard))
		if err != nil {
			b.Fatal(err)
		}
		if t := out.Throttling; t != nil && t.Refused > 0 {
			b.Fatalf("limits on: %d attempts refused; the comparison wants none", t.Refused)
		}
		return float64(out.Total.Requests) / out.Elapsed.Seconds()
	}
	for range 2 {
		plain = append(plain, plainLoop(ctx, db, table))
		measured = append(measured, rate(bench.Limits{Off: true}))
		limited = append(limited, rate(bench.Limits{}))
	}
	p, m, l := (plain[0]+plain[1])/2, (measured[0]+measured[1])/2, (limited[0]+limited[1])/2
	b.ReportMetric(p, "plain-calls/s")
	b.ReportMetric(m, "bench-calls/s")
	b.ReportMetric(l, "limits-calls/s")
	b.ReportMetric(100*m/p, "bench-%-of-plain")
	b.ReportMetric(100*l/m, "limits-%-of-off")
}

// plainLoop is the baseline: throughputWorkers goroutines calling GetItem
// back to back on uniformly drawn keys, after the same warm-up.
func plainLoop(ctx context.Context, db *dynamodb.Client, table string) float64 {
	g := getter{db, table}
	run := func(d time.Duration) int64 {
		var calls atomic.Int64
		deadline := time.Now().Add(d)
		var wg sync.WaitGroup
		for w := range throughputWorkers {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(1, uint64(w)))
				for time.Now().Before(deadline) {
					if g.Call(ctx, "AP-01", r.IntN(throughputItems), r) == nil {
						calls.Add(1)
					}
				}
			})
		}
		wg.Wait()
		return calls.Load()
	}
	run(time.Second)
	began := time.Now()
	n := run(throughputRun)
	return float64(n) / time.Since(began).Seconds()
}
