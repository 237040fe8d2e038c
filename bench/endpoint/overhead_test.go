package endpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// The speed benchmark's loops: each side of a comparison runs speedRound
// at a time, in turn (direct, through the endpoint, direct...), so that
// the JVM's warming and the machine's other load fall on both sides.
const (
	speedRounds  = 3
	speedRound   = 3 * time.Second
	speedWorkers = 16 // the GetItem loop's calls at once
	speedItems   = 1000
)

// BenchmarkThroughEndpoint compares loops straight to DynamoDB Local with
// the same loops through the endpoint (limits on, at DynamoDB's own
// limits, over 1,000 items, so that none is refused), side by side in one
// run: a GetItem loop 16 calls at once (Go SDK), with limits off too, and
// a single-thread boto3 PutItem loop (skipped when python3 cannot import
// boto3). Each reports its calls/s and the endpoint's % of direct. Run it:
// ddbharness local in another shell, then
// AWS_ENDPOINT_URL_DYNAMODB=<its endpoint> go test ./bench/endpoint -run '^$' -bench ThroughEndpoint -benchtime 1x
func BenchmarkThroughEndpoint(b *testing.B) {
	local := os.Getenv(testbed.EnvEndpoint)
	if local == "" {
		b.Skip("set " + testbed.EnvEndpoint + " to a DynamoDB Local (ddbharness local prints one)")
	}
	ctx := context.Background()
	direct := testbed.Client(local)
	table := designs.TableName("endpoint", "speed")
	if err := designs.CreateTable(ctx, direct, schema, table); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { designs.DeleteTable(ctx, direct, table) })
	keys := make([]map[string]types.AttributeValue, speedItems)
	for i := range keys {
		keys[i] = itemAt(fmt.Sprintf("K%d", i), "A")
		item := itemAt(fmt.Sprintf("K%d", i), "A")
		item["Name"] = str("an item with a name of some length")
		if _, err := direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
	on, off := serveSpeed(b, Config{Local: local}), serveSpeed(b, Config{Local: local, Off: true})

	b.Run("GetItem16", func(b *testing.B) {
		get := func(db *dynamodb.Client) float64 {
			return getLoop(ctx, b, db, table, keys)
		}
		sides := rounds(func() float64 { return get(direct) }, func() float64 { return get(testbed.Client(on)) }, func() float64 { return get(testbed.Client(off)) })
		reportSpeed(b, sides[0], sides[1])
		b.ReportMetric(sides[2], "limits-off-calls/s")
		b.ReportMetric(100*sides[2]/sides[0], "limits-off-%-of-direct")
	})
	b.Run("PutItemBoto3", func(b *testing.B) {
		if out, err := exec.Command("python3", "-c", "import boto3").CombinedOutput(); err != nil {
			b.Skipf("python3 cannot import boto3 (%v: %s): apt-get install python3-boto3", err, out)
		}
		put := func(url string) float64 { return boto3Loop(b, url, table) }
		sides := rounds(func() float64 { return put(local) }, func() float64 { return put(on) })
		reportSpeed(b, sides[0], sides[1])
	})
}

// serveSpeed serves an endpoint of cfg on loopback, as local --limits
// does, and returns its URL.
func serveSpeed(b *testing.B, cfg Config) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := Server(New(cfg), HeaderTimeout, BodyTimeout)
	go srv.Serve(lis)
	b.Cleanup(func() { srv.Close() })
	return "http://" + lis.Addr().String()
}

// rounds runs each side speedRounds times in turn and returns each
// side's mean calls/s.
func rounds(sides ...func() float64) []float64 {
	mean := make([]float64, len(sides))
	for range speedRounds {
		for i, side := range sides {
			mean[i] += side() / speedRounds
		}
	}
	return mean
}

func reportSpeed(b *testing.B, direct, through float64) {
	b.ReportMetric(direct, "direct-calls/s")
	b.ReportMetric(through, "limits-on-calls/s")
	b.ReportMetric(100*through/direct, "limits-on-%-of-direct")
}

// getLoop is speedWorkers goroutines calling GetItem back to back for
// speedRound; it returns their calls/s.
func getLoop(ctx context.Context, b *testing.B, db *dynamodb.Client, table string, keys []map[string]types.AttributeValue) float64 {
	var calls atomic.Int64
	start := time.Now()
	deadline := start.Add(speedRound)
	var wg sync.WaitGroup
	for w := range speedWorkers {
		wg.Go(func() {
			for i := w; time.Now().Before(deadline); i += speedWorkers {
				if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: keys[i%len(keys)]}); err != nil {
					b.Error(err)
					return
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(calls.Load()) / time.Since(start).Seconds()
}

// boto3Loop runs testdata/put_loop_boto3.py on url for speedRound and
// returns its calls/s.
func boto3Loop(b *testing.B, url, table string) float64 {
	out, err := exec.Command("python3", "testdata/put_loop_boto3.py", url, table, strconv.FormatFloat(speedRound.Seconds(), 'f', -1, 64)).Output()
	if err != nil {
		b.Fatalf("the boto3 loop on %s: %v", url, err)
	}
	var got struct {
		Calls   int64
		Seconds float64
	}
	if err := json.Unmarshal(out, &got); err != nil || got.Seconds <= 0 {
		b.Fatalf("the boto3 loop printed %q: %v", out, err)
	}
	return float64(got.Calls) / got.Seconds
}
