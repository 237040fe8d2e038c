package capacity

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity/capacitytest"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// near compares model figures, which are sums of fractions.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// analyze observes calls spread evenly over the model's seconds and
// analyzes them.
func analyze(m Model, calls ...pricing.Observation) Report {
	m.Requests = int64(len(calls))
	return m.Analyze(capacitytest.Observed(m.Schema, m.Duration, calls...))
}

func TestCeilingOfAHotKey(t *testing.T) {
	// 100 puts of 1 KB and 100 strongly consistent reads of 4 KB on one
	// key over 10 s: 20 requests/s, each taking 0.5 WCU and 0.5 RCU on
	// average. Reads and writes are throttled on their own: the writes
	// fill the partition's 1,000 WCU/s first, at 2,000 requests/s, 100×
	// the measured rate (the reads would take 6,000).
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("HOT", "B", 4000)}}
	calls := append(repeat(100, put), repeat(100, get)...)
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, calls...)

	c := r.Ceiling
	if c == nil || c.Key != "HOT" || c.Target != designs.MainTable || !near(c.Rate, 2000) || !near(c.Factor, 100) {
		t.Fatalf("Analyze().Ceiling = %+v, want the table's HOT at 2,000 requests/s, 100× the measured 20", c)
	}
	if !near(r.MeasuredRate, 20) {
		t.Errorf("Analyze().MeasuredRate = %g, want 20", r.MeasuredRate)
	}
	h := r.Hot[0]
	// Contributor Insights weight: 3 × 100 WCU + 100 RCU.
	if h.Key != "HOT" || h.Score != 400 || h.Share != 1 || h.Pattern != "AP-01" || !near(h.ThrottleRate, 2000) {
		t.Errorf("Analyze().Hot[0] = %+v, want HOT scoring 400, all of it, mostly AP-01, throttling at 2,000/s", h)
	}
	// Calls alternate over 10 seconds: each second holds 10 puts and 10 gets.
	if h.PeakWCU != 10 || h.PeakRCU != 10 || len(h.Series) != 10 {
		t.Errorf("Analyze().Hot[0] peaks %g RCU/s, %g WCU/s over %d seconds, want 10, 10 over 10", h.PeakRCU, h.PeakWCU, len(h.Series))
	}
}

func TestForecastAtTargetRate(t *testing.T) {
	// Every request writes 1 WCU on HOT: the partition serves 1,000
	// requests/s. At 2,000 requests/s half the writes are refused.
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 2000}, repeat(100, put)...)
	f := r.Forecast
	if f == nil || !near(f.ThrottledFraction, 0.5) || len(f.Over) != 1 {
		t.Fatalf("Analyze().Forecast = %+v, want half the requests throttled on one key", f)
	}
	if p := f.Over[0]; p.Key != "HOT" || !near(p.WCU, 2000) || !near(p.Utilization, 2) || !near(p.Refused, 0.5) {
		t.Errorf("Analyze().Forecast.Over[0] = %+v, want HOT at 2,000 WCU/s, twice its limit, half refused", p)
	}
	// Replayed through the engine: 2,000 WCU/s against 1,000, the bucket
	// full at the start, so a little under half of the units are refused,
	// from the first second on.
	if rp := f.Replay; rp == nil || len(rp.Partitions) != 1 {
		t.Fatalf("Analyze().Forecast.Replay = %+v, want one partition refusing", rp)
	} else if p := rp.Partitions[0]; p.Side != "write" || !slices.Equal(p.Keys, []string{"HOT"}) || p.Refused < 0.4 || p.Refused > 0.5 || p.Seconds < 9 {
		t.Errorf("Analyze().Forecast.Replay.Partitions[0] = %+v, want HOT's writes, 40-50%% refused, nearly every second", p)
	}
	below := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 999}, repeat(100, put)...)
	if below.Forecast.ThrottledFraction != 0 || len(below.Forecast.Over) != 0 || len(below.Forecast.Replay.Partitions) != 0 {
		t.Errorf("Analyze() at 999 requests/s forecasts %+v, want no throttling", below.Forecast)
	}
}

func TestReadsAndWritesThrottleApart(t *testing.T) {
	// Half the calls read 4 KB (1 RCU), half write 1 KB (1 WCU), all on
	// HOT. At 5,000 requests/s the reads take 2,500 of 3,000 RCU/s and pass;
	// the writes take 2,500 of 1,000 WCU/s, so 60% of the write calls (half
	// of all calls) are refused: 30% of requests.
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("HOT", "B", 4000)}}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}, append(repeat(100, put), repeat(100, get)...)...)
	if f := r.Forecast; f == nil || !near(f.ThrottledFraction, 0.3) || len(f.Over) != 1 || !near(f.Over[0].Utilization, 2.5) {
		t.Errorf("Analyze().Forecast = %+v, want 30%% throttled, HOT at 2.5× its write limit", f)
	}
}

func TestGSIBackPressure(t *testing.T) {
	// Every create puts a new table key and an entry under one GSI key
	// "Agency": the index partition is the ceiling, at 1,000 creates/s,
	// and its throttling throttles the table's writes.
	var calls []pricing.Observation
	for i := range 50 {
		item := with(sized(fmt.Sprintf("AGENCY#%d", i), "A", 600), "G", s("Agency"), "GS", s(fmt.Sprint(i)))
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: item}}})
	}
	r := analyze(Model{Schema: schema, Duration: 5 * time.Second}, calls...)
	c := r.Ceiling
	// GSI1 has a sort key and lives in its own partitions: its items may be split.
	if c == nil || c.Target != "GSI1" || c.Key != "Agency" || !near(c.Rate, 1000) || !c.BackPressure || !c.Splittable {
		t.Errorf("Analyze().Ceiling = %+v, want GSI1 Agency at 1,000 requests/s with back-pressure, splittable", c)
	}
}

func TestLSITrafficSharesTheTablePartition(t *testing.T) {
	// Each put writes 1 WCU to the table and 1 to LSI1 under the same
	// partition key: the partition takes 2 WCU per request, full at 500/s.
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem,
		Writes: []pricing.Write{{After: with(sized("CAT", "A", 500), "L", s("sku"))}}}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, repeat(100, put)...)
	// With an LSI, an item collection stays on one partition: no split.
	if c := r.Ceiling; c == nil || c.Target != designs.MainTable || c.Key != "CAT" || !near(c.Rate, 500) || c.Splittable {
		t.Errorf("Analyze().Ceiling = %+v, want the table's CAT at 500 requests/s, not splittable", c)
	}
}

func TestProvisionedTableLimitAndBurst(t *testing.T) {
	// 50 WCU provisioned, each request writes 1 WCU on its own key: the
	// table throttles at 50 requests/s. At 100/s half is refused, and 300 s
	// of saved 50 WCU/s covers the 50 WCU/s excess for 300 s.
	prov := designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 100, WCU: 50}
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem,
			Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i), "A", 900)}}})
	}
	r := analyze(Model{Schema: prov, Duration: 10 * time.Second, TargetRate: 100}, calls...)
	if c := r.Ceiling; c == nil || c.Key != "" || !near(c.Rate, 50) || c.Limit != "50 WCU/s provisioned" {
		t.Errorf("Analyze().Ceiling = %+v, want the table's 50 WCU/s at 50 requests/s", c)
	}
	// The run used 10 of the 50 WCU/s: 300 s of the other 40 bank 12,000
	// units, which cover the 50 WCU/s excess for 240 s.
	if f := r.Forecast; f == nil || !near(f.ThrottledFraction, 0.5) || !near(f.BurstSeconds, 300) || !near(f.BurstAfterRunSeconds, 240) || f.BurstBank != 300 {
		t.Errorf("Analyze().Forecast = %+v, want half throttled, burst for 300 s from a full bank, 240 s after the run", f)
	}
	if r.Warm != nil {
		t.Errorf("Analyze().Warm = %+v on a provisioned table, want none", r.Warm)
	}
	if tu := r.Targets[0]; tu.Partitions != 1 || tu.ProvisionedWCU != 50 {
		t.Errorf("Analyze().Targets[0] = %+v, want 1 partition for 100 RCU + 50 WCU", tu)
	}
	if got := throughput.Partitions(1000, 1000, 25<<30); got != 3 {
		t.Errorf("throughput.Partitions(1,000 RCU, 1,000 WCU, 25 GB) = %d, want 3 (by size; 2 by throughput)", got)
	}
}

func TestWarmThroughputCeiling(t *testing.T) {
	// 100 puts of 1 KB on keys of their own over 10 s: 10 requests/s, 1 WRU
	// each. A new on-demand table serves 4,000 WRU/s at once: the mix
	// reaches it at 4,000 requests/s, long before the 40,000 quota.
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i), "A", 900)}}})
	}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 10000}, calls...)
	w := r.Warm
	// To 10,000 requests/s: 2.5× the warm rate, two doublings of up to 30
	// minutes each; on day one 60% of the write units are refused.
	if w == nil || w.Target != designs.MainTable || !near(w.Rate, 4000) || !near(w.Factor, 400) || w.Declared ||
		w.Limit != "12,000 RRU/s or 4,000 WRU/s (or a linear combination) warm throughput of a new on-demand table" || w.Side != "WRU" ||
		!near(w.GrowTo, 10000) || w.Doublings != 2 || !near(w.GrowSeconds, 3600) || !near(w.DayOneRefused, 0.6) {
		t.Errorf("Analyze().Warm = %+v, want the table at 4,000 requests/s, two doublings to 10,000, 60%% refused on day one", w)
	}
	// The first limit is a partition of the new table's four: every key
	// (0.01 WRU a request each) is placed by hash, and the partition with
	// the most of them reaches 1,000 WCU/s first, before the warm 4,000
	// WRU/s (the keys are not spread quite evenly). With a partition of
	// its own a key would take 100,000 requests/s; with the other nine hot
	// keys and the 90 light ones spread evenly over the four, 3,883; with
	// the nine on its partition and the light ones spread, 3,077.
	most := map[int]int{}
	for i := range 100 {
		most[throughput.Placement(fmt.Sprintf("K%d", i), 4, 0)]++
	}
	want := 100000 / float64(slices.Max(slices.Collect(maps.Values(most))))
	if c := r.Ceiling; c == nil || c.Key == "" || c.Sharing == nil || !near(c.Rate, want) || !near(c.Rate, c.Sharing.Placed) ||
		!near(c.Sharing.Alone, 100000) || !near(c.Sharing.Expected, 1000/0.2575) || !near(c.Sharing.Worst, 1000/0.325) ||
		c.Sharing.Partitions != 4 || c.Sharing.HotKeys != 10 || c.Sharing.Odds != 1 || c.Rate >= 4000 || len(c.Sharing.With) == 0 {
		t.Errorf("Analyze().Ceiling = %+v (%+v), want the partition with the most keys at %.0f requests/s, before the warm 4,000", c, c.Sharing, want)
	}

	// Declared at 20,000 WRU/s, below a target of 30,000: one doubling,
	// and a third of the units refused on day one.
	pre := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 30000, Settings: throughput.Settings{WarmWrites: 20000}}, calls...)
	if w := pre.Warm; w == nil || !w.Declared || !near(w.Rate, 20000) || !near(w.GrowTo, 30000) || w.Doublings != 1 || !near(w.DayOneRefused, 1.0/3) {
		t.Errorf("Analyze(warm 20,000).Warm = %+v, want 20,000 requests/s, declared, one doubling to the target", w)
	}
	if over := analyze(Model{Schema: schema, Duration: 10 * time.Second, Settings: throughput.Settings{WarmWrites: 50000}}, calls...); over.Warm != nil {
		t.Errorf("Analyze(warm 50,000).Warm = %+v, want none: the quota comes first", over.Warm)
	}
}

func TestGrowthOfASetItem(t *testing.T) {
	// A pool item whose string set gains a 10-byte member per call: 23 B at
	// first ("PK"+"POOL", "Members"+one member), +10 B per call. 100 calls
	// over 10 s add 1,000 B: 100 B/s, so the 400 KB limit (409,600 B) is
	// (409,600 − 1,023) / 100 = 4,085.77 s away, half that at twice the rate.
	single := designs.Schema{PK: "PK"}
	members := []string{"m000000000"}
	var calls []pricing.Observation
	for i := 1; i <= 100; i++ {
		before := ddbitem.Item{"PK": s("POOL"), "Members": &types.AttributeValueMemberSS{Value: members}}
		members = append(members[:len(members):len(members)], fmt.Sprintf("m%09d", i))
		after := ddbitem.Item{"PK": s("POOL"), "Members": &types.AttributeValueMemberSS{Value: members}}
		calls = append(calls, pricing.Observation{Pattern: "AP-07", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: after}}})
	}
	r := analyze(Model{Schema: single, Duration: 10 * time.Second, TargetRate: 20}, calls...)
	var item, coll Growth
	for _, g := range r.Growth {
		if g.Kind == "item" {
			item = g
		} else {
			coll = g
		}
	}
	want := Growth{Kind: "item", Key: "POOL", Bytes: 1023, Added: 1000, BytesPerSecond: 100, Limit: ddbitem.MaxItemBytes,
		SecondsToLimit: 4085.77, SecondsAtTarget: 2042.885}
	if item.Key != want.Key || item.Bytes != want.Bytes || item.Added != want.Added || !near(item.BytesPerSecond, 100) ||
		!near(item.SecondsToLimit, want.SecondsToLimit) || !near(item.SecondsAtTarget, want.SecondsAtTarget) {
		t.Errorf("Analyze().Growth item = %+v, want %+v", item, want)
	}
	// Without an LSI the collection grows too, with no size limit.
	if coll.Key != "POOL" || coll.Bytes != 1023 || coll.Added != 1000 || coll.Limit != 0 || coll.SecondsToLimit != 0 {
		t.Errorf("Analyze().Growth collection = %+v, want POOL at 1,023 B, +1,000, no limit", coll)
	}
}

func TestCollectionsAndIndexKeysNeedRepeatedGrowth(t *testing.T) {
	// 30 orders, each created with three writes of its own collection:
	// none is growth. One warehouse takes a shipment entry on GSI1 with
	// every order: that key grows with traffic.
	var calls []pricing.Observation
	shipped := 0
	for i := range 30 {
		order := fmt.Sprintf("ORDER#%d", i)
		head := with(sized(order, "A", 300), "G", s("WAREHOUSE#1"), "GS", s(order))
		shipped += ddbitem.Size(head) // GSI1 projects ALL
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: head}}})
		for _, sk := range []string{"B", "C"} {
			calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(order, sk, 200)}}})
		}
	}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, calls...)
	if len(r.Growth) != 1 {
		t.Fatalf("Analyze().Growth = %+v, want the warehouse's GSI1 key alone", r.Growth)
	}
	if g := r.Growth[0]; g.Kind != "index key" || g.Target != "GSI1" || g.Key != "WAREHOUSE#1" || g.Added != shipped || g.Bytes != shipped || g.Limit != 0 {
		t.Errorf("Analyze().Growth[0] = %+v, want GSI1's WAREHOUSE#1, %d B added, no limit", g, shipped)
	}
}

func TestGrowthNeedsRepeatedGrowth(t *testing.T) {
	// One write that enlarges an item (a voucher issued, a status set) is a
	// change of state, not growth with traffic: no projection to 400 KB.
	// The same item enlarged by three writes is projected.
	single := designs.Schema{PK: "PK"}
	grow := func(writes int) []Growth {
		var calls []pricing.Observation
		before := sized("ITEM", "", 100)
		for i := 1; i <= writes; i++ {
			after := sized("ITEM", "", 100+200*i)
			calls = append(calls, pricing.Observation{Pattern: "AP-09", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: after}}})
			before = after
		}
		return analyze(Model{Schema: single, Duration: 10 * time.Second}, calls...).Growth
	}
	items := func(gs []Growth) (n int) {
		for _, g := range gs {
			if g.Kind == "item" {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct{ writes, want int }{{1, 0}, {MinGrowthWrites - 1, 0}, {MinGrowthWrites, 1}} {
		t.Run(fmt.Sprintf("%d writes", tt.writes), func(t *testing.T) {
			if got := items(grow(tt.writes)); got != tt.want {
				t.Errorf("Analyze() after %d enlarging writes: %d growing items, want %d", tt.writes, got, tt.want)
			}
		})
	}
}

func TestCost(t *testing.T) {
	// Each request: a 1 KB put (1 WCU) or an eventually consistent 4 KB
	// read (0.5 RCU), half each: 0.5 WCU and 0.25 RCU per request.
	// On demand: 0.5 × $0.625 + 0.25 × $0.125 = $0.34375 per million.
	// Provisioned at 70%: 10⁶ × (0.25 × 0.00013 + 0.5 × 0.00065) / 3600 / 0.7.
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("A", "A", 1000)}}}
	get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{sized("B", "B", 4000)}}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, append(repeat(10, put), repeat(10, get)...)...)
	wantProvisioned := 1e6 * (0.25*0.00013 + 0.5*0.00065) / 3600 / 0.7
	if !near(r.Cost.OnDemand, 0.34375) || !near(r.Cost.Provisioned, wantProvisioned) {
		t.Errorf("Analyze().Cost = $%g on demand, $%g provisioned per million, want $0.34375 and $%g",
			r.Cost.OnDemand, r.Cost.Provisioned, wantProvisioned)
	}
}

func TestReportIsJSON(t *testing.T) {
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}, repeat(100, put)...)
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("json.Marshal(Report) error %v", err)
	}
	empty := Model{Schema: schema}.Analyze(ledger.NewLedger(schema))
	if _, err := json.Marshal(empty); err != nil || empty.Ceiling != nil {
		t.Errorf("Analyze(empty ledger) = %+v, %v; want no ceiling and valid JSON", empty.Ceiling, err)
	}
}

// A new on-demand table serves 12,000 RRU/s, or 4,000 WRU/s, or a linear
// combination: a mix of half a read unit and half a write unit a request
// reaches it at 6,000 requests/s (0.5/12,000 + 0.5/4,000 of it each), not
// at the 8,000 the write side alone would allow. Its partitions are four
// (either side alone at 3,000 RCU or 1,000 WCU each), not the eight
// AWS's provisioned formula sums.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
func TestWarmThroughputIsALinearCombination(t *testing.T) {
	if got := throughput.WarmShare(6000, 2000, ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU); !near(got, 1) {
		t.Errorf("throughput.WarmShare(6,000 RRU, 2,000 WRU) = %g, want the whole warm throughput", got)
	}
	if got := throughput.WarmPartitions(ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU, 0); got != 4 {
		t.Errorf("throughput.WarmPartitions(12,000, 4,000) = %d, want 4", got)
	}
	if got := throughput.WarmPartitions(ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU, 50<<30); got != 5 {
		t.Errorf("throughput.WarmPartitions(12,000, 4,000, 50 GB) = %d, want 5 (by size)", got)
	}
	if got := throughput.Partitions(ddbitem.NewOnDemandRRU, ddbitem.NewOnDemandWRU, 0); got != 8 {
		t.Errorf("throughput.Partitions(12,000 RCU, 4,000 WCU) provisioned = %d, want 8", got)
	}
	// 100 calls over 10 s: 50 puts of 1 KB (1 WRU) and 50 eventually
	// consistent reads of 8 KB (1 RRU): half a unit of each a request.
	var calls []pricing.Observation
	for i := range 50 {
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("W%d", i), "A", 900)}}},
			pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{sized(fmt.Sprintf("R%d", i), "A", 8000)}})
	}
	w := analyze(Model{Schema: schema, Duration: 10 * time.Second}, calls...).Warm
	if w == nil || !near(w.Rate, 6000) || w.Side != "WRU" {
		t.Errorf("Analyze().Warm = %+v, want 6,000 requests/s, writes the larger share", w)
	}
}

// Two hot keys that the run placed on one partition reach its limit
// together: the ceiling is their partition's rate, named with both, with
// the key's rate alone, with the other hot key spread over the partitions
// (expected) and with both together (worst), and the odds that two of
// them share. 3 hot keys on 4 partitions share with p = 1 − 4·3·2/4³.
func TestHotKeysThatShareAPartition(t *testing.T) {
	if got := ShareOdds(3, 4); !near(got, 0.625) {
		t.Errorf("ShareOdds(3, 4) = %g, want 0.625", got)
	}
	// Per request: A 0.6 WCU, B 0.4 WCU, C 0.2 WCU (1 KB writes).
	var calls []pricing.Observation
	for _, k := range []struct {
		key string
		n   int
	}{{"A", 30}, {"B", 20}, {"C", 10}} {
		for range k.n {
			calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(k.key, "S", 900)}}})
		}
	}
	placed := func(_, key string) (int, int) {
		if key == "C" {
			return 1, 4
		}
		return 0, 4 // A and B together
	}
	m := Model{Schema: schema, Duration: 10 * time.Second, Placed: placed}
	l := ledger.NewLedger(schema)
	for i, o := range calls {
		o.At = t0.Add(time.Duration(i%10) * time.Second)
		l.Observe(o)
	}
	m.Requests = 50 // 60 writes in 50 requests: A 0.6, B 0.4, C 0.2 a request
	c := m.Analyze(l).Ceiling
	if c == nil || c.Key != "A" || c.Sharing == nil {
		t.Fatalf("Ceiling = %+v, want A's partition", c)
	}
	sh := c.Sharing
	// Alone 1,000/0.6; placed with B 1,000/1.0; expected 1,000/(0.6 + 0.6/4);
	// worst 1,000/1.2.
	if !near(c.Rate, 1000) || !near(sh.Placed, 1000) || !near(sh.Alone, 1000/0.6) || !near(sh.Expected, 1000/0.75) ||
		!near(sh.Worst, 1000/1.2) || sh.HotKeys != 3 || sh.Partitions != 4 || !near(sh.Odds, 0.625) ||
		len(sh.With) != 1 || sh.With[0] != "B" {
		t.Errorf("Sharing = %+v (rate %g)", sh, c.Rate)
	}
	// The placement shares one partition: A and B, each alone at its own
	// rate, together at A's ceiling. C alone on its own is not listed.
	if len(sh.Shared) != 1 || sh.Shared[0].Partition != 0 || !slices.Equal(sh.Shared[0].Keys, []string{"A", "B"}) ||
		!near(sh.Shared[0].Alone[0], 1000/0.6) || !near(sh.Shared[0].Alone[1], 1000/0.4) || !near(sh.Shared[0].Rate, 1000) {
		t.Errorf("Sharing.Shared = %+v, want A and B on partition 0", sh.Shared)
	}
}

// On a new table's four partitions ten hot keys always share: the
// sharing lists the keys each partition holds under this placement, with
// the rate each would reach alone (the findings name them instead of
// odds of 100 %).
func TestSharingListsTheKeysThatShare(t *testing.T) {
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i), "A", 900)}}})
	}
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, calls...)
	sh := r.Ceiling.Sharing
	if len(sh.Shared) < 2 {
		t.Fatalf("Sharing.Shared = %+v, want the partitions that hold two hot keys or more", sh.Shared)
	}
	for _, p := range sh.Shared {
		for i, k := range p.Keys {
			if got := throughput.Placement(k, 4, 0); got != p.Partition || !near(p.Alone[i], 100000) {
				t.Errorf("Shared partition %d lists %q (placed on %d), alone at %g; want it placed there, alone at 100,000 requests/s", p.Partition, k, got, p.Alone[i])
			}
		}
	}
}
