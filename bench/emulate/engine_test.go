package emulate

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// flow is steady traffic on one partition key value: units per second,
// one side, sent as calls of units/ticks each.
type flow struct {
	key   string
	units float64
	side  int
}

// served is, per simulated second, the units each flow got.
type served [][]float64

// simulate runs flows against e for seconds, in ticks per second: each
// call is admitted or refused, and an admitted call is debited at once.
func simulate(e *Emulator, clock *time.Time, seconds, ticks int, flows []flow) served {
	out := make(served, seconds)
	step := time.Second / time.Duration(ticks)
	for s := range seconds {
		out[s] = make([]float64, len(flows))
		for range ticks {
			for i, f := range flows {
				u := f.units / float64(ticks)
				t := touch{table: "t", target: designs.MainTable, key: f.key, side: f.side}
				e.mu.Lock()
				r := e.admit([]touch{t}, clock.UnixNano())
				e.mu.Unlock()
				if r != nil {
					continue
				}
				c := pricing.Charge{Target: designs.MainTable, Key: f.key}
				if f.side == read {
					c.RCU = u
				} else {
					c.WCU = u
				}
				e.Debit("t", []pricing.Charge{c})
				out[s][i] += u
			}
			*clock = clock.Add(step)
		}
	}
	return out
}

// fullSeconds counts the seconds in which flow i got all it asked for
// (within one call's units).
func (s served) fullSeconds(i int, want float64, ticks int) int {
	n := 0
	for _, sec := range s {
		if sec[i] >= want-want/float64(ticks)-1e-9 {
			n++
		}
	}
	return n
}

// keysOn returns n partition key values on n distinct partitions of 4.
func keysOn(n int) []string {
	var keys []string
	seen := map[uint64]bool{}
	for i := 0; len(keys) < n; i++ {
		k := fmt.Sprintf("K%d", i)
		if p := partitionOf(k, 4); !seen[p] {
			seen[p] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func provisioned(rcu, wcu int64) designs.Schema {
	return designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: rcu, WCU: wcu}
}

func newAt(s designs.Schema, cfg Config) (*Emulator, *time.Time) {
	clock := time.Unix(1_800_000_000, 0)
	cfg.Now = func() time.Time { return clock }
	e := New(s, cfg)
	e.Enable()
	return e, &clock
}

// TestBurstExample is AWS's burst example as behaviour: a table
// provisioned at 150 RCU banks 300 s of it (45,000 units); a steady 200
// RCU/s is served in full while the bank lasts, 900 s, then held at 150.
// Source: https://repost.aws/knowledge-center/dynamodb-spiky-workloads-short-intervals
func TestBurstExample(t *testing.T) {
	const ticks = 20
	e, clock := newAt(provisioned(150, 1), Config{})
	got := simulate(e, clock, 1000, ticks, []flow{{key: "k", units: 200, side: read}})
	full := got.fullSeconds(0, 200, ticks)
	if full < 899 || full > 901 {
		t.Errorf("200 RCU/s on 150 RCU provisioned: served in full for %d s, want 900 (45,000 banked / 50 over)", full)
	}
	for s := 905; s < 1000; s++ {
		if u := got[s][0]; math.Abs(u-150) > 200.0/ticks {
			t.Fatalf("second %d, bank empty: served %.1f RCU, want the provisioned 150", s, u)
		}
	}
}

// TestAdaptiveExample is AWS's adaptive capacity example as behaviour: a
// table provisioned at 400 WCU over four partitions (100 each) serves one
// partition 150 WCU/s while the others take 50 each, with no burst left:
// a hot partition may use what the table leaves unused. The same table
// asked for 450 WCU/s in all is held at 400.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
func TestAdaptiveExample(t *testing.T) {
	const ticks = 20
	keys := keysOn(4)
	for _, c := range []struct {
		name      string
		hot       float64
		wantTotal float64
		wantFull  bool // the hot partition served in full every second
	}{
		{"150 on one partition, 300 in all", 150, 300, true},
		{"300 on one partition, 450 in all", 300, 400, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, clock := newAt(provisioned(1, 400), Config{Settings: throughput.Settings{Partitions: 4}})
			e.tableOf("t", clock.UnixNano()).spaces[designs.MainTable].Drain(-1, write, clock.UnixNano(), 0) // no burst left
			flows := []flow{{keys[0], 50, write}, {keys[1], 50, write}, {keys[2], 50, write}, {keys[3], c.hot, write}}
			got := simulate(e, clock, 60, ticks, flows)
			var total float64
			for _, u := range got[59] {
				total += u
			}
			if math.Abs(total-c.wantTotal) > 450.0/ticks {
				t.Errorf("served %.1f WCU in the last second, want %.0f", total, c.wantTotal)
			}
			if full := got.fullSeconds(3, c.hot, ticks); c.wantFull && full < 60 {
				t.Errorf("the hot partition was served in full %d of 60 s, want all", full)
			}
		})
	}
}

// TestPartitionLimit: one partition key value never gets more than one
// partition's 1,000 WCU/s, whatever the table's throughput, and a scale
// multiplies that limit.
func TestPartitionLimit(t *testing.T) {
	const ticks = 50
	for _, scale := range []float64{1, 0.01} {
		e, clock := newAt(designs.Schema{PK: "PK"}, Config{Settings: throughput.Settings{Scale: scale}})
		got := simulate(e, clock, 10, ticks, []flow{{key: "hot", units: 1500 * scale, side: write}, {key: "hot-read", units: 2000 * scale, side: read}})
		for s := 2; s < 10; s++ {
			if math.Abs(got[s][0]-1000*scale) > 1500*scale/ticks {
				t.Errorf("scale %g, second %d: one value served %.2f WCU, want %.0f", scale, s, got[s][0], 1000*scale)
			}
			if got[s][1] < 2000*scale-1e-9 {
				t.Errorf("scale %g, second %d: reads served %.2f RCU of 2,000, throttled by the writes", scale, s, got[s][1])
			}
		}
	}
}

// TestIsolation: a partition hot for IsolateAfter moves its hottest value
// to a partition of its own; the value next to it is then served in full.
func TestIsolation(t *testing.T) {
	const ticks = 20
	var a, b string
	for i := 0; b == ""; i++ {
		k := fmt.Sprintf("K%d", i)
		switch {
		case a == "":
			a = k
		case partitionOf(k, 4) == partitionOf(a, 4):
			b = k
		}
	}
	e, clock := newAt(designs.Schema{PK: "PK"}, Config{Settings: throughput.Settings{Partitions: 4, IsolateAfter: 30 * time.Second}})
	got := simulate(e, clock, 90, ticks, []flow{{a, 900, write}, {b, 300, write}})
	if got[10][0]+got[10][1] > 1000+1200.0/ticks {
		t.Errorf("second 10: %.0f WCU served on one partition, want at most 1,000", got[10][0]+got[10][1])
	}
	if got[80][0] < 900-1e-6 || got[80][1] < 300-1e-6 {
		t.Errorf("second 80, after isolation: served %.0f and %.0f, want 900 and 300", got[80][0], got[80][1])
	}
	if n := e.Measured(0, 0).Isolations; n != 1 {
		t.Errorf("isolations = %d, want 1", n)
	}
}

// TestOnDemandLinearCombination: a new on-demand table serves 12,000 RRU/s,
// or 4,000 WRU/s, or a linear combination of the two, on four partitions.
// 4,800 RRU/s with 1,600 WRU/s (0.4 + 0.4 of it) is served in full;
// 9,000 RRU/s with 3,000 WRU/s (0.75 + 0.75) is held to the whole of it,
// where reads and writes apart would serve both in full.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
func TestOnDemandLinearCombination(t *testing.T) {
	const ticks = 20
	e, clock := newAt(designs.Schema{PK: "PK"}, Config{})
	if n := e.tableOf("t", clock.UnixNano()).spaces[designs.MainTable].Count(); n != 4 {
		t.Errorf("a new on-demand table has %d partitions, want 4", n)
	}
	for _, c := range []struct {
		reads, writes float64
		share         float64 // of the warm throughput served
	}{{4800, 1600, 0.8}, {9000, 3000, 1}} {
		// Many keys, so that no partition limits them: Partitions 64.
		e, clock := newAt(designs.Schema{PK: "PK"}, Config{Settings: throughput.Settings{Partitions: 64}})
		var flows []flow
		for i := range 40 {
			flows = append(flows, flow{fmt.Sprintf("R%d", i), c.reads / 40, read}, flow{fmt.Sprintf("W%d", i), c.writes / 40, write})
		}
		got := simulate(e, clock, 30, ticks, flows)
		var r, w float64
		for i, u := range got[29] {
			if flows[i].side == read {
				r += u
			} else {
				w += u
			}
		}
		if share := r/12000 + w/4000; math.Abs(share-c.share) > 0.05 {
			t.Errorf("%.0f RRU/s and %.0f WRU/s asked: served %.0f RRU/s and %.0f WRU/s, %.2f of the warm throughput, want %.2f",
				c.reads, c.writes, r, w, share, c.share)
		}
	}
}
