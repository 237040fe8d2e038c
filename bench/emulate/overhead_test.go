package emulate

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// BenchmarkOverhead measures what emulating DynamoDB's limits adds to a
// call through bench's instrumented client and ledger: admitting it
// before each attempt, holding and releasing its estimate, and debiting
// its charges. GetItems of 1,000 partition key values, none refused (the
// table is provisioned far above the load).
// Run it: go test ./bench/emulate -run '^$' -bench Overhead
func BenchmarkOverhead(b *testing.B) {
	body := []byte(`{"Item":{"PK":{"S":"K"},"SK":{"S":"A"},"Name":{"S":"an item with a name of some length"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}`)
	s := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G", SK: "SK"}},
		Billing: types.BillingModeProvisioned, RCU: 1 << 30, WCU: 1 << 30}
	opts := dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), HTTPClient: ddbtest.Answer(body),
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")}
	keys := make([]*dynamodb.GetItemInput, 1000)
	for i := range keys {
		keys[i] = &dynamodb.GetItemInput{TableName: aws.String("t"),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("K%d", i)}, "SK": &types.AttributeValueMemberS{Value: "A"}}}
	}
	ctx := designs.WithPattern(context.Background(), "AP-01")
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("limits=%v", on), func(b *testing.B) {
			l := ledger.NewLedger(s)
			var c *meter.Client
			if on {
				e := New(s, Config{})
				c = meter.NewClient(dynamodb.New(opts, e.Install), s)
				Attach(e, c, func(_ context.Context, o pricing.Observation) []pricing.Charge { return l.Observe(o) })
				e.Enable()
				defer func() {
					if t := e.Measured(0, 0); t.Refused > 0 {
						b.Fatalf("%d attempts refused: the benchmark wants none", t.Refused)
					}
				}()
			} else {
				c = meter.NewClient(dynamodb.New(opts), s)
				Attach(nil, c, func(_ context.Context, o pricing.Observation) []pricing.Charge { return l.Observe(o) })
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := c.GetItem(ctx, keys[i%len(keys)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkEmulator is the emulator's own work per call, without the SDK
// around it, as attempt does it: the partitions and items a call touches,
// its conflicts, admission and reservation, its items in flight, its end,
// and the debit of its charge. GetItem is a read, PutItem a write whose
// item conflicts are looked up (or not, conflicts off).
func BenchmarkEmulator(b *testing.B) {
	s := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G", SK: "SK"}}}
	ctx := designs.WithPattern(context.Background(), "AP-01")
	const n = 1000
	gets, puts := make([]any, n), make([]any, n)
	reads, writes := make([][]pricing.Charge, n), make([][]pricing.Charge, n)
	for i := range n {
		k := fmt.Sprintf("K%d", i)
		key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k}, "SK": &types.AttributeValueMemberS{Value: "A"}}
		gets[i] = &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key}
		puts[i] = &dynamodb.PutItemInput{TableName: aws.String("t"), Item: key}
		reads[i] = []pricing.Charge{{Target: designs.MainTable, Key: k, RCU: 0.5}}
		writes[i] = []pricing.Charge{{Target: designs.MainTable, Key: k, WCU: 1}}
	}
	for _, c := range []struct {
		name    string
		ins     []any
		charges [][]pricing.Charge
		off     bool
	}{{"GetItem", gets, reads, false}, {"PutItem", puts, writes, false}, {"PutItem, conflicts off", puts, writes, true}} {
		b.Run(c.name, func(b *testing.B) {
			e := New(s, Config{Settings: throughput.Settings{Scale: 1000}, NoConflicts: c.off})
			e.Enable()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := i % n
				call := e.newCall(ctx, c.ins[k])
				now := e.now()
				e.mu.Lock()
				if e.conflicts(call, now) != nil {
					b.Fatal("in conflict")
				}
				if r, _ := e.decide(call, now); r != nil {
					b.Fatal("refused")
				}
				call.held = e.reserve(call.touches, now, call.held)
				e.hold(call, now)
				e.mu.Unlock()
				e.mu.Lock()
				e.release(call)
				e.mu.Unlock()
				e.end(call)
				e.Debit("t", c.charges[k])
				i++
			}
		})
	}
}
