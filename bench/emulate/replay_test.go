package emulate

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// TestReplayRefusesAsTheLiveRun records a run through the emulator (each
// call decided, then charged as bench charges it: the ledger's charges
// debited) and replays the ledger through the capacity model: the replay,
// on the same throughput engine, refuses the same partitions in the same
// seconds as the live run did.
func TestReplayRefusesAsTheLiveRun(t *testing.T) {
	s := designs.Schema{PK: "PK", SK: "SK"}
	// 0.01: a partition takes 10 WCU/s; the table's warm 40 WRU/s.
	e, clock := newAt(s, Config{Scale: 0.01, Partitions: 4})
	ledger := capacity.NewLedger(s)
	ctx := designs.WithPattern(context.Background(), "AP-01")
	hot, cold := keysOff(2, 4)[0], keysOff(2, 4)[1]
	if Placement(hot, 4) == Placement(cold, 4) {
		t.Fatal("the two keys share a partition")
	}
	// Puts of 1 WCU a second: the hot key at half its partition's limit,
	// twice it from second 5 to 9, then half again; the cold one steady.
	rates := func(sec int) map[string]int {
		if sec >= 5 && sec < 10 {
			return map[string]int{hot: 20, cold: 3}
		}
		return map[string]int{hot: 5, cold: 3}
	}
	start := *clock
	var requests int64
	for sec := range 15 {
		type put struct {
			at  time.Duration
			key string
		}
		var puts []put
		for key, n := range rates(sec) {
			for i := range n {
				puts = append(puts, put{time.Duration(sec)*time.Second + time.Duration(float64(time.Second)*(float64(i)+0.5)/float64(n)), key})
			}
		}
		slices.SortFunc(puts, func(a, b put) int { return int(a.at - b.at) })
		for _, p := range puts {
			*clock = start.Add(p.at)
			item := map[string]types.AttributeValue{"PK": str(p.key), "SK": str(fmt.Sprint(p.at))}
			c := e.newCall(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item})
			now := e.now()
			e.mu.Lock()
			r, _ := e.decide(c, now)
			c.last = r
			if r != nil {
				e.m.refused(r, c.pattern, now)
			} else {
				c.held = e.reserve(c.touches, now, c.held)
			}
			e.mu.Unlock()
			e.end(c)
			requests++
			if r == nil {
				charges := ledger.Observe(capacity.Observation{At: *clock, Pattern: "AP-01", Op: designs.PutItem, Table: "t",
					Writes: []capacity.Write{{After: item, Key: item}}})
				e.Debit("t", charges)
			}
		}
	}

	type at struct {
		part int
		sec  int64
	}
	live := map[at]bool{}
	for _, k := range e.Measured(requests, 15*time.Second).Keys {
		part, _ := e.Placed(k.Target, k.Key)
		live[at{part, k.Second.Unix()}] = true
	}
	if len(live) == 0 {
		t.Fatal("the live run refused nothing: the spec's rates do not reach the limit")
	}
	rep := capacity.Model{Schema: s, Requests: requests, Duration: 15 * time.Second, Scale: e.Scale(),
		Unserved: e.Unserved, UnservedAt: e.UnservedAt, Placed: e.Placed}.Analyze(ledger)
	replayed := map[at]bool{}
	for _, p := range rep.Replay.Partitions {
		for _, r := range p.Ranges {
			for sec := r.From; sec <= r.To; sec++ {
				replayed[at{p.Partition, sec}] = true
			}
		}
	}
	show := func(m map[at]bool) []string {
		var out []string
		for a := range m {
			out = append(out, fmt.Sprintf("partition %d second %d", a.part, a.sec-start.Unix()))
		}
		slices.Sort(out)
		return out
	}
	if got, want := show(replayed), show(live); !slices.Equal(got, want) {
		t.Errorf("replay refused in\n  %v\nthe live run in\n  %v", got, want)
	}
}
