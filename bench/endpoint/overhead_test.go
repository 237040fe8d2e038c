package endpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
// run: a GetItem loop 16 calls at once (Go SDK), and a single-thread boto3
// PutItem loop (skipped when python3 cannot import boto3), each with
// limits off too. The endpoint runs in a process of its own, as local
// --limits serves it (SetProcs included). Each loop reports its calls/s,
// the endpoint's % of direct, and the endpoint's CPU time per call, which
// the machine's other load moves less than it moves calls/s. Run it:
// ddbharness local in another shell, then
// AWS_ENDPOINT_URL_DYNAMODB=<its endpoint> go test ./bench/endpoint -run '^$' -bench ThroughEndpoint -benchtime 1x
// (with DDBHARNESS_SPEED_CPUPROFILE=<dir>, each endpoint's CPU profile is
// written there).
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
	on, off := speedEndpoint(b, local, "on"), speedEndpoint(b, local, "off")

	b.Run("GetItem16", func(b *testing.B) {
		get := func(at endpointProc) side {
			db := testbed.Client(at.url)
			return side{func() (int64, time.Duration) { return getLoop(ctx, b, db, table, keys) }, at.cpu}
		}
		reportSpeed(b, rounds(get(endpointProc{url: local}), get(on), get(off)))
	})
	b.Run("PutItemBoto3", func(b *testing.B) {
		if out, err := exec.Command("python3", "-c", "import boto3").CombinedOutput(); err != nil {
			b.Skipf("python3 cannot import boto3 (%v: %s): apt-get install python3-boto3", err, out)
		}
		put := func(at endpointProc) side {
			return side{func() (int64, time.Duration) { return boto3Loop(b, at.url, table) }, at.cpu}
		}
		reportSpeed(b, rounds(put(endpointProc{url: local}), put(on), put(off)))
	})
}

// side is one side's loop, which returns the calls it made and how long
// they took, and the CPU time of the endpoint it goes through (nil for
// none).
type side struct {
	run func() (calls int64, took time.Duration)
	cpu func() time.Duration
}

// speed is what a side measured: its calls/s, and its endpoint's CPU
// time per call (µs).
type speed struct{ rate, cpu float64 }

// rounds runs each side speedRounds times in turn and returns what each
// measured over its rounds.
func rounds(sides ...side) []speed {
	calls, took, cpu := make([]int64, len(sides)), make([]time.Duration, len(sides)), make([]time.Duration, len(sides))
	for range speedRounds {
		for i, s := range sides {
			var before time.Duration
			if s.cpu != nil {
				before = s.cpu()
			}
			n, d := s.run()
			if s.cpu != nil {
				cpu[i] += s.cpu() - before
			}
			calls[i] += n
			took[i] += d
		}
	}
	out := make([]speed, len(sides))
	for i := range sides {
		out[i] = speed{float64(calls[i]) / took[i].Seconds(), float64(cpu[i].Microseconds()) / float64(max(calls[i], 1))}
	}
	return out
}

// reportSpeed reports the sides direct, limits on and limits off.
func reportSpeed(b *testing.B, sides []speed) {
	direct, on, off := sides[0], sides[1], sides[2]
	b.ReportMetric(direct.rate, "direct-calls/s")
	b.ReportMetric(on.rate, "limits-on-calls/s")
	b.ReportMetric(100*on.rate/direct.rate, "limits-on-%-of-direct")
	b.ReportMetric(on.cpu, "limits-on-endpoint-cpu-µs/call")
	b.ReportMetric(off.rate, "limits-off-calls/s")
	b.ReportMetric(100*off.rate/direct.rate, "limits-off-%-of-direct")
	b.ReportMetric(off.cpu, "limits-off-endpoint-cpu-µs/call")
}

// getLoop is speedWorkers goroutines calling GetItem back to back for
// speedRound.
func getLoop(ctx context.Context, b *testing.B, db *dynamodb.Client, table string, keys []map[string]types.AttributeValue) (int64, time.Duration) {
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
	return calls.Load(), time.Since(start)
}

// boto3Loop runs testdata/put_loop_boto3.py on url for speedRound.
func boto3Loop(b *testing.B, url, table string) (int64, time.Duration) {
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
	return got.Calls, time.Duration(got.Seconds * float64(time.Second))
}

// BenchmarkHandler is one GetItem and one PutItem handled by the endpoint
// (limits on), called in process, DynamoDB Local answering: its B/op and
// allocs/op, which the machine's load does not move, are the endpoint's
// own work per call. Run it as BenchmarkThroughEndpoint, with -bench
// Handler -benchmem.
func BenchmarkHandler(b *testing.B) {
	local := os.Getenv(testbed.EnvEndpoint)
	if local == "" {
		b.Skip("set " + testbed.EnvEndpoint + " to a DynamoDB Local (ddbharness local prints one)")
	}
	ctx := context.Background()
	direct := testbed.Client(local)
	table := designs.TableName("endpoint", "handler")
	if err := designs.CreateTable(ctx, direct, schema, table); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { designs.DeleteTable(ctx, direct, table) })
	h := New(Config{Local: local})
	for _, c := range []struct{ op, body string }{
		{"GetItem", `{"TableName":"` + table + `","Key":{"PK":{"S":"K1"},"SK":{"S":"A"}}}`},
		{"PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"K1"},"SK":{"S":"A"},"Name":{"S":"an item with a name of some length"}}}`},
	} {
		b.Run(c.op, func(b *testing.B) {
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
				r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+c.op)
				r.Header.Set("Content-Type", "application/x-amz-json-1.0")
				r.Header.Set("Authorization", placeholderAuth)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", c.op, w.Code, w.Body)
				}
			}
		})
	}
}
