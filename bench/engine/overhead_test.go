package bench_test

import (
	"context"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEngine measures the engine's own cost per call: b.N calls of a
// driver that does nothing, due at once, through the whole engine (pacer,
// worker pool, Results, metrics, progress). It reports the CPU each call
// took (the target is 10 µs or less) beside the wall time per call.
func BenchmarkEngine(b *testing.B) {
	b.ReportAllocs()
	if calls := runForCPU(b, sleeping(0, bench.Scenario{Pacer: allAtOnce(b.N), Duration: time.Hour})); calls != b.N {
		b.Fatalf("%d results for %d calls", calls, b.N)
	}
}

// runForCPU runs sc on a fake database and reports the CPU per call.
func runForCPU(b *testing.B, sc bench.Scenario) (calls int) {
	cpu := cpuTime()
	b.ResetTimer()
	out, err := bench.Run(context.Background(), newFakeDB(), sc, bench.Warmup(0), bench.Progress(io.Discard))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(len(out.Results))/1e3, "cpu-µs/call")
	return len(out.Results)
}

// BenchmarkEnginePaced is BenchmarkEngine at a steady 2,000 calls a
// second, the pace of a real run: each call then also pays for the
// scheduler's sleep and a worker's wake-up.
func BenchmarkEnginePaced(b *testing.B) {
	const rate = 2000
	runForCPU(b, sleeping(0, bench.Scenario{Pacer: vegeta.ConstantPacer{Freq: rate, Per: time.Second},
		Duration: time.Duration(b.N+1) * time.Second / rate}))
}

// allAtOnce makes n calls due at once, then stops.
type allAtOnce uint64

func (n allAtOnce) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	return 0, hits >= uint64(n)
}
func (allAtOnce) Rate(time.Duration) float64 { return 0 }

// cannedDB answers GetItem and TransactWriteItems at once with fixed
// outputs, so that the instrumented client's own cost shows.
type cannedDB struct {
	designs.DB
	item capacity.Image
}

func (c cannedDB) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	one := 0.5
	return &dynamodb.GetItemOutput{Item: c.item, ConsumedCapacity: &types.ConsumedCapacity{TableName: aws.String("t"), CapacityUnits: &one}}, nil
}

func (c cannedDB) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// BenchmarkClient measures what the instrumented client and the capacity
// ledger add to each call, over a database that answers at once: the SDK
// itself costs some 60–70 µs of CPU per GetItem.
func BenchmarkClient(b *testing.B) {
	item := capacity.Image{"PK": s("CLIENT#1"), "SK": s("CLIENT#1"), "Name": s("A client with a name"),
		"Email": s("someone@example.com"), "Address": s("1 Main Street, Springfield")}
	ledger := capacity.NewLedger()
	c := bench.NewClient(cannedDB{item: item}, schema)
	c.Observe(func(o capacity.Observation) { ledger.Observe(schema, o) })
	ctx := bench.WithPattern(context.Background(), pattern)

	b.Run("GetItem", func(b *testing.B) {
		in := &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key("CLIENT#1", "CLIENT#1")}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.GetItem(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("TransactWriteItems/update+put", func(b *testing.B) {
		tx := designs.Tx{Table: "t"}
		tx.Update(key("CLIENT#1", "CLIENT#1"), expression.Set(expression.Name("Name"), expression.Value("B")), schema.IsStored(), nil)
		tx.Put(row{"CLIENT#1", "EMAIL#x", "x"}, schema.IsNew(), nil)
		b.ReportAllocs()
		for b.Loop() {
			if err := tx.Write(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
