package capacity

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// The replay gives a table's budget the share of the units offered to it
// that it refused, as the engine counts. Eight keys each take 4 WCU/s (1 KB
// puts) and 12 RCU/s (4 KB strongly consistent gets) for 20 s on a new
// on-demand table at 1 % of real limits: 40 WRU/s or 120 RRU/s or a linear
// combination, on four partitions of 10 WCU/s and 30 RCU/s. The keys are
// two to a partition, so none fills; together they ask 1.6 times the
// budget, which refuses a part of what it is offered (about 1 − 1/1.6),
// not all of it.
func TestReplayBudgetShareIsTheEngines(t *testing.T) {
	const secs, scale = 20, 0.01
	perSec := [2]int{12, 4} // calls a second of each key, per side
	cfg := throughput.Config{Settings: throughput.Settings{Scale: scale, IsolateAfter: -1}}
	var keys []string
	per := map[int]int{}
	for i, placed := 0, throughput.NewSpace(cfg, 0); len(keys) < 8; i++ {
		key := fmt.Sprintf("K%d", i)
		if part := placed.Partition(key); per[part] < 2 {
			per[part]++
			keys = append(keys, key)
		}
	}
	var calls []pricing.Observation
	for _, key := range keys {
		put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(key, "A", 900)}}}
		get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized(key, "B", 4000)}}
		calls = append(calls, repeat(perSec[throughput.Write]*secs, put)...)
		calls = append(calls, repeat(perSec[throughput.Read]*secs, get)...)
	}
	r := analyze(Model{Schema: schema, Duration: secs * time.Second, Settings: throughput.Settings{Scale: scale}}, calls...)
	if r.Replay == nil {
		t.Fatal("Analyze().Replay = nil, want the run replayed")
	}

	// The engine on its own: the same space, the same calls (each key's of
	// a second evenly over it, in time order), counting per side the units
	// offered to the budget and those it refused.
	type call struct {
		at   int64
		key  string
		side int
	}
	var order []call
	first := t0.Truncate(time.Second).UnixNano()
	for sec := range int64(secs) {
		for _, key := range keys {
			for side, n := range perSec {
				for i := range int64(n) {
					order = append(order, call{first + sec*int64(time.Second) + (2*i+1)*int64(time.Second)/(2*int64(n)), key, side})
				}
			}
		}
	}
	slices.SortStableFunc(order, func(a, b call) int { return cmp.Compare(a.at, b.at) })
	sp := throughput.NewSpace(cfg, first)
	var offered, refused [2]float64
	for _, c := range order {
		offered[c.side]++
		part, ok := sp.Admit(c.key, c.side, c.at)
		if !ok {
			if part < 0 {
				refused[c.side]++
			} else {
				t.Fatalf("partition %d refused %s's %s at %d: the spec means only the budget to refuse", part, c.key, [2]string{"read", "write"}[c.side], c.at)
			}
			continue
		}
		var u [2]float64
		u[c.side] = 1
		sp.Consume(c.key, u, c.at)
	}

	for side, name := range [2]string{"read", "write"} {
		want := refused[side] / offered[side]
		if want <= 0.05 || want >= 0.5 {
			t.Fatalf("the engine's budget refused %.1f %% of the %s units offered to it, want a part of them", 100*want, name)
		}
		i := slices.IndexFunc(r.Replay.Partitions, func(p ReplayedPartition) bool {
			return p.Target == designs.MainTable && p.Partition == -1 && p.Side == name
		})
		if i < 0 {
			t.Errorf("Analyze().Replay.Partitions = %+v, want the table's %s budget among them", r.Replay.Partitions, name)
			continue
		}
		if got := r.Replay.Partitions[i].Refused; math.Abs(got-want) > 0.02 {
			t.Errorf("the replay's table budget refused %.1f %% of its %ss, want the engine's %.1f %% (within 2 points)", 100*got, name, 100*want)
		}
	}
}
