package limits

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// BenchmarkOverhead measures what emulating DynamoDB's limits adds to a
// call through bench's instrumented client and ledger: admitting it
// before each attempt, holding and releasing its estimate, and debiting
// its charges. GetItems of 1,000 partition key values, none refused (the
// table is provisioned far above the load).
// Run it: go test ./bench/limits -run '^$' -bench Overhead
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
			ledger := capacity.NewLedger(s)
			var c *meter.Client
			if on {
				e := New(s, Config{})
				c = meter.NewClient(dynamodb.New(opts, e.Install), s)
				e.Lookup(c.Current)
				c.Observe(func(o capacity.Observation) { e.Debit(o.Table, ledger.Observe(o)) })
				e.Enable()
				defer func() {
					if t := e.Measured(0, 0); t.Refused > 0 {
						b.Fatalf("%d attempts refused: the benchmark wants none", t.Refused)
					}
				}()
			} else {
				c = meter.NewClient(dynamodb.New(opts), s)
				c.Observe(func(o capacity.Observation) { ledger.Observe(o) })
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
// around it: the partitions a GetItem touches, its admission and
// reservation, its end, and the debit of its charge.
func BenchmarkEmulator(b *testing.B) {
	s := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G", SK: "SK"}}}
	e := New(s, Config{Scale: 1000})
	e.Enable()
	ctx := designs.WithPattern(context.Background(), "AP-01")
	ins := make([]*dynamodb.GetItemInput, 1000)
	charges := make([][]capacity.Charge, len(ins))
	for i := range ins {
		k := fmt.Sprintf("K%d", i)
		ins[i] = &dynamodb.GetItemInput{TableName: aws.String("t"),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k}, "SK": &types.AttributeValueMemberS{Value: "A"}}}
		charges[i] = []capacity.Charge{{Target: designs.MainTable, Key: k, RCU: 0.5}}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n := i % len(ins)
		c := e.newCall(ctx, ins[n])
		now := e.now()
		e.mu.Lock()
		if r, _ := e.decide(c, now); r != nil {
			b.Fatal("refused")
		}
		c.held = e.reserve(c.touches, now, c.held)
		e.mu.Unlock()
		e.end(c)
		e.Debit("t", charges[n])
		i++
	}
}
