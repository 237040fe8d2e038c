package emulate

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// recorded is a run of puts recorded through an emulator: each attempt
// decided as the middleware decides it, and an admitted one charged as
// bench charges it (the ledger's charges debited).
type recorded struct {
	e        *Emulator
	schema   designs.Schema
	ledger   *ledger.Ledger
	start    time.Time
	requests int64
	secs     int
}

// record puts, in each of secs seconds, rates(sec)[key] items of 1 WCU
// under each key, evenly over the second, through e on clock.
func record(e *Emulator, clock *time.Time, s designs.Schema, secs int, rates func(sec int) map[string]int) recorded {
	r := recorded{e: e, schema: s, ledger: ledger.NewLedger(s), start: *clock, secs: secs}
	ctx := designs.WithPattern(context.Background(), "AP-01")
	type put struct {
		at  time.Duration
		key string
	}
	var puts []put
	for sec := range secs {
		puts = puts[:0]
		for key, n := range rates(sec) {
			for i := range n {
				puts = append(puts, put{time.Duration(sec)*time.Second + time.Duration(float64(time.Second)*(float64(i)+0.5)/float64(n)), key})
			}
		}
		slices.SortFunc(puts, func(a, b put) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.key, b.key)) })
		for _, p := range puts {
			*clock = r.start.Add(p.at)
			item := map[string]types.AttributeValue{"PK": str(p.key), "SK": str(fmt.Sprint(p.at))}
			c := e.newCall(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item})
			now := e.now()
			e.mu.Lock()
			refused, _ := e.decide(c, now)
			c.last = refused
			if refused != nil {
				e.m.refused(refused, c.pattern, now)
			} else {
				c.held = e.reserve(c.touches, now, c.held)
			}
			e.mu.Unlock()
			e.end(c)
			r.requests++
			if refused == nil {
				charges := r.ledger.Observe(pricing.Observation{At: *clock, Pattern: "AP-01", Op: designs.PutItem, Table: "t",
					Writes: []pricing.Write{{After: item, Key: item}}})
				e.Debit("t", charges)
			}
		}
	}
	return r
}

// analyze is the capacity model of the recorded run, on the emulator's
// placement and with its throttled calls put back, as bench builds it.
func (r recorded) analyze(topN int) capacity.Report {
	m := capacity.Model{Schema: r.schema, Requests: r.requests, Duration: time.Duration(r.secs) * time.Second, Settings: r.e.Settings(), TopN: topN}
	r.e.Inform(&m)
	return m.Analyze(r.ledger)
}

// at is a partition refusing in a Unix second.
type at struct {
	part int
	sec  int64
}

// live is where and when the recorded run's emulator refused.
func (r recorded) live() map[at]bool {
	out := map[at]bool{}
	for _, k := range r.e.Measured(r.requests, time.Duration(r.secs)*time.Second).Keys {
		part, _ := r.e.Placed(k.Target, k.Key)
		out[at{part, k.Second.Unix()}] = true
	}
	return out
}

// replayed is where and when a replay refused.
func replayed(rep *capacity.Replay) map[at]bool {
	out := map[at]bool{}
	for _, p := range rep.Partitions {
		for _, r := range p.Ranges {
			for sec := r.From; sec <= r.To; sec++ {
				out[at{p.Partition, sec}] = true
			}
		}
	}
	return out
}

// show lists refusals by partition and second from start, in that
// order, to compare.
func show(m map[at]bool, start time.Time) []string {
	ats := slices.SortedFunc(maps.Keys(m), func(a, b at) int { return cmp.Or(cmp.Compare(a.part, b.part), cmp.Compare(a.sec, b.sec)) })
	out := make([]string, len(ats))
	for i, a := range ats {
		out[i] = fmt.Sprintf("partition %d second %d", a.part, a.sec-start.Unix())
	}
	return out
}

// TestReplayRefusesAsTheLiveRun records a run through the emulator and
// replays the ledger through the capacity model: the replay, on the same
// throughput engine, refuses the same partitions in the same seconds as
// the live run did.
func TestReplayRefusesAsTheLiveRun(t *testing.T) {
	s := designs.Schema{PK: "PK", SK: "SK"}
	// 0.01: a partition takes 10 WCU/s; the table's warm 40 WRU/s.
	e, clock := newAt(s, Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}})
	hot, cold := keysOff(2, 4)[0], keysOff(2, 4)[1]
	if Placement(hot, 4) == Placement(cold, 4) {
		t.Fatal("the two keys share a partition")
	}
	// Puts of 1 WCU a second: the hot key at half its partition's limit,
	// twice it from second 5 to 9, then half again; the cold one steady.
	run := record(e, clock, s, 15, func(sec int) map[string]int {
		if sec >= 5 && sec < 10 {
			return map[string]int{hot: 20, cold: 3}
		}
		return map[string]int{hot: 5, cold: 3}
	})

	live := run.live()
	if len(live) == 0 {
		t.Fatal("the live run refused nothing: the spec's rates do not reach the limit")
	}
	if got, want := show(replayed(run.analyze(0).Replay), run.start), show(live, run.start); !slices.Equal(got, want) {
		t.Errorf("replay refused in\n  %v\nthe live run in\n  %v", got, want)
	}
}

// TestFirstThrottleIsTheLiveRuns: the capacity model puts a hot key's
// partition at its limit at the rate the emulator forecasts for that
// partition from what it served there, light keys included. HOT takes 8
// puts of 1 WCU a second on a partition of 10 WCU/s, two light values
// beside it 2 each (so it refuses), and a value elsewhere 3; only HOT is a
// hot key (TopN 1).
func TestFirstThrottleIsTheLiveRuns(t *testing.T) {
	s := designs.Schema{PK: "PK", SK: "SK"}
	e, clock := newAt(s, Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}})
	const hot = "HOT"
	var beside, elsewhere []string
	for i := 0; len(beside) < 2 || len(elsewhere) < 1; i++ {
		k := fmt.Sprintf("L%d", i)
		if Placement(k, 4) == Placement(hot, 4) {
			beside = append(beside, k)
		} else {
			elsewhere = append(elsewhere, k)
		}
	}
	rates := map[string]int{hot: 8, beside[0]: 2, beside[1]: 2, elsewhere[0]: 3}
	run := record(e, clock, s, 15, func(int) map[string]int { return rates })

	measured := run.e.Measured(run.requests, 15*time.Second)
	i := slices.IndexFunc(measured.Partitions, func(p PartitionThrottles) bool { return p.Partition == Placement(hot, 4) })
	if i < 0 {
		t.Fatalf("HOT's partition refused nothing: %+v", measured.Partitions)
	}
	want := measured.Partitions[i].ForecastRate
	rep := run.analyze(1)
	if len(rep.Hot) == 0 || rep.Hot[0].Key != hot {
		t.Fatalf("Analyze().Hot = %+v, want HOT first", rep.Hot)
	}
	if got := rep.Hot[0].ThrottleRate; math.Abs(got-want) > want/100 {
		t.Errorf("the model puts HOT's partition at its limit at %.2f requests/s, the emulator at %.2f: want them within 1 %%", got, want)
	}
}

// TestReplayIsolatesAsTheLiveRun: over a run longer than the split for
// heat's delay, the replay isolates a hot value when the live run did, by
// the same rule (bench/throughput's), and refuses in the same seconds,
// before it and not after. HOT takes 9 puts of 1 WCU a second and COLD 2
// on one partition of 10 WCU/s: the partition refuses every second, at
// its limit (hot), until HOT gets a partition of its own, after which
// both are served in full.
func TestReplayIsolatesAsTheLiveRun(t *testing.T) {
	const secs = 400
	s := designs.Schema{PK: "PK", SK: "SK"}
	e, clock := newAt(s, Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}})
	const hot = "HOT"
	cold := ""
	for i := 0; cold == ""; i++ {
		if k := fmt.Sprintf("C%d", i); Placement(k, 4) == Placement(hot, 4) {
			cold = k
		}
	}
	run := record(e, clock, s, secs, func(int) map[string]int { return map[string]int{hot: 9, cold: 2} })

	if n := run.e.Measured(run.requests, secs*time.Second).Isolations; n != 1 {
		t.Fatalf("the live run isolated %d values, want HOT", n)
	}
	if part, n := run.e.Placed(designs.MainTable, hot); part != 4 || n != 5 {
		t.Fatalf("HOT is on partition %d of %d, want the fifth, its own", part, n)
	}
	live := run.live()
	last := int64(0)
	for a := range live {
		last = max(last, a.sec-run.start.Unix())
	}
	if len(live) < 250 || last >= secs-60 {
		t.Fatalf("the live run refused in %d seconds, the last at %d: the spec means its partition to refuse until HOT is isolated, after 5 minutes", len(live), last)
	}
	rep := run.analyze(0).Replay
	if got, want := show(replayed(rep), run.start), show(live, run.start); !slices.Equal(got, want) {
		t.Errorf("replay refused in %d seconds, the live run in %d; the replay's first differing: %v",
			len(got), len(want), firstDiff(got, want))
	}
	if rep.Isolations != 1 {
		t.Errorf("the replay isolated %d values, want HOT, as the live run did", rep.Isolations)
	}
}

// firstDiff is where two lists of refusals first differ.
func firstDiff(a, b []string) string {
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return "only live: " + b[i]
		case i >= len(b):
			return "only replayed: " + a[i]
		case a[i] != b[i]:
			return "replayed " + a[i] + ", live " + b[i]
		}
	}
	return "none"
}

// TestReplayConfiguresTheEngineAsTheLiveRun: whatever the emulator's
// settings (billing, warm, maximum and switched-from throughput, a fixed
// partition count, a placement seed, a shorter split for heat), the
// capacity model that carries them (Emulator.Settings) runs the engine
// configured as the emulator did: the same isolation, the refusals in the
// same seconds. HOT takes 9 puts of 1 WCU a second and COLD 2 on one
// partition of 10 WCU/s until HOT gets a partition of its own, after 20 s.
func TestReplayConfiguresTheEngineAsTheLiveRun(t *testing.T) {
	const secs = 60
	split := throughput.Settings{Scale: 0.01, IsolateAfter: 20 * time.Second}
	for _, c := range []struct {
		name   string
		schema designs.Schema
		set    func(*throughput.Settings)
	}{
		{"on-demand", designs.Schema{PK: "PK", SK: "SK"}, func(*throughput.Settings) {}},
		{"on-demand, 2 partitions, seed 7", designs.Schema{PK: "PK", SK: "SK"}, func(s *throughput.Settings) { s.Partitions, s.PlacementSeed = 2, 7 }},
		{"on-demand, warm", designs.Schema{PK: "PK", SK: "SK"}, func(s *throughput.Settings) { s.WarmReads, s.WarmWrites = 36000, 12000 }},
		{"on-demand, max", designs.Schema{PK: "PK", SK: "SK"}, func(s *throughput.Settings) { s.MaxWrites = 2000 }},
		{"on-demand, switched", designs.Schema{PK: "PK", SK: "SK"}, func(s *throughput.Settings) { s.SwitchedRCU, s.SwitchedWCU = 24000, 8000 }},
		{"provisioned, seed 3", provisioned(100, 2000), func(s *throughput.Settings) { s.PlacementSeed = 3 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := split
			c.set(&st)
			e, clock := newAt(c.schema, Config{Settings: st})
			e.tableOf("t", clock.UnixNano())
			const hot = "HOT"
			_, n := e.Placed(designs.MainTable, hot)
			cold := ""
			for i := 0; cold == ""; i++ {
				if k := fmt.Sprintf("C%d", i); throughput.Placement(k, n, st.PlacementSeed) == throughput.Placement(hot, n, st.PlacementSeed) {
					cold = k
				}
			}
			run := record(e, clock, c.schema, secs, func(int) map[string]int { return map[string]int{hot: 9, cold: 2} })

			if n := run.e.Measured(run.requests, secs*time.Second).Isolations; n != 1 {
				t.Fatalf("the live run isolated %d values, want HOT", n)
			}
			live := run.live()
			if len(live) < 5 {
				t.Fatalf("the live run refused in %d seconds: the spec means its partition to refuse until HOT is isolated", len(live))
			}
			rep := run.analyze(0).Replay
			if got, want := show(replayed(rep), run.start), show(live, run.start); !slices.Equal(got, want) {
				t.Errorf("replay refused in %d seconds, the live run in %d; the first differing: %v", len(got), len(want), firstDiff(got, want))
			}
			if rep.Isolations != 1 {
				t.Errorf("the replay isolated %d values, want HOT, as the live run did", rep.Isolations)
			}
		})
	}
}
