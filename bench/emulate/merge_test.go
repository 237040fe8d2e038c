package emulate

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// send makes one call of pattern writing units on key of table "t" through
// e, as the SDK's retryer would, with no pause: up to three attempts, the
// admitted one debited.
func send(e *Emulator, pattern designs.PatternID, key string, units float64) {
	c := &call{pattern: pattern, touches: []touch{{table: "t", target: designs.MainTable, key: key, side: write}}}
	for range 3 {
		now := e.now()
		c.attempts++
		e.mu.Lock()
		c.last = e.admit(c.touches, now)
		if c.last != nil {
			e.m.refused(c.last, pattern, now)
		}
		e.mu.Unlock()
		if c.last == nil {
			e.Debit("t", []pricing.Charge{{Target: designs.MainTable, Key: key, WCU: units}})
			break
		}
	}
	e.end(c)
}

// hotRun is 20 s of a mix whose HOT key takes twice a partition's writes
// at scale (20 calls of 1 unit at scale 0.01, whose partition takes 10),
// beside 10 cold calls a second, its calls dealt in turn to the emulators
// (one machine, or shards at their share of the scale), which share a
// clock. It returns each one's calls.
func hotRun(clock *time.Time, es ...*Emulator) []int64 {
	const ticks = 20
	calls := make([]int64, len(es))
	n := 0
	deal := func(pattern designs.PatternID, key string) {
		i := n % len(es)
		send(es[i], pattern, key, 1)
		calls[i]++
		n++
	}
	for s := range 20 {
		for tick := range ticks {
			deal("AP-01", "HOT")
			if tick%2 == 0 {
				deal("AP-02", fmt.Sprintf("COLD#%d", (s*ticks+tick)%7))
			}
			*clock = clock.Add(time.Second / ticks)
		}
	}
	return calls
}

// onClock returns emulators of one table at the given scales, enabled,
// on one clock.
func onClock(scales ...float64) ([]*Emulator, *time.Time) {
	clock := time.Unix(1_800_000_000, 0)
	var es []*Emulator
	for _, scale := range scales {
		e := New(designs.Schema{PK: "PK"}, Config{Settings: throughput.Settings{Scale: scale, Partitions: 4}, Now: func() time.Time { return clock }})
		e.Enable()
		es = append(es, e)
	}
	return es, &clock
}

var _ = Describe("merging shards' throttling", Label("unit"), func() {
	const span = 20 * time.Second

	It("gives one shard's measure back as it is", func() {
		es, clock := onClock(0.01)
		calls := hotRun(clock, es...)
		t := es[0].Measured(calls[0], span)
		Expect(t.Partitions).NotTo(BeEmpty(), "the run throttles")
		Expect(t.Keys).NotTo(BeEmpty())
		Expect(MergeThrottling(t)).To(Equal(t))
	})

	It("sums two shards at half the scale into what one machine measures", func() {
		es, clock := onClock(0.01, 0.005, 0.005)
		one := hotRun(clock, es[0])
		*clock = time.Unix(1_800_000_000, 0)
		halves := hotRun(clock, es[1], es[2])
		whole := es[0].Measured(one[0], span)
		merged := MergeThrottling(es[1].Measured(halves[0], span), es[2].Measured(halves[1], span))

		Expect(merged.Calls).To(Equal(whole.Calls))
		Expect(merged.Patterns).To(HaveLen(len(whole.Patterns)))
		for i, p := range whole.Patterns {
			Expect(merged.Patterns[i].Pattern).To(Equal(p.Pattern))
			Expect(merged.Patterns[i].Calls).To(Equal(p.Calls))
		}
		Expect(merged.Scale).To(BeNumerically("~", whole.Scale, 1e-12))
		Expect(merged.Rate).To(BeNumerically("~", whole.Rate, 1e-9))
		Expect(merged.Refused).To(BeNumerically("~", whole.Refused, whole.Refused/20))
		Expect(merged.Throttled).To(BeNumerically("~", whole.Throttled, whole.Throttled/20))

		Expect(whole.Partitions).To(HaveLen(1))
		Expect(merged.Partitions).To(HaveLen(1))
		got, want := merged.Partitions[0], whole.Partitions[0]
		Expect([]any{got.Target, got.Partition, got.Side, got.Keys}).To(Equal([]any{want.Target, want.Partition, want.Side, want.Keys}))
		// Each shard's partition fills at its own pace, within a tick.
		Expect(got.First).To(BeTemporally("~", want.First, time.Second))
		Expect(got.Limit).To(BeNumerically("~", want.Limit, 1e-9), "the partition's whole limit")
		Expect(got.Calls).To(BeNumerically("~", want.Calls, want.Calls/20))
		Expect(got.Refused).To(BeNumerically("~", want.Refused, want.Refused/20))
		Expect(got.ThrottledSeconds).To(BeNumerically("~", want.ThrottledSeconds, 1))
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"held units a second", got.HeldUnits, want.HeldUnits},
			{"demand per request", got.DemandPerRequest, want.DemandPerRequest},
			{"forecast rate", got.ForecastRate, want.ForecastRate},
			{"measured rate", got.MeasuredRate, want.MeasuredRate},
			{"throttled share", got.Share, want.Share},
			{"forecast share", got.ForecastShare, want.ForecastShare},
		} {
			Expect(f.got).To(BeNumerically("~", f.want, f.want/20), f.name)
		}
	})

	It("merges each field of two shards' measures as documented", func() {
		t0 := time.Unix(1_800_000_000, 0).UTC()
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		a := Throttling{Scale: 0.005, Billing: "on-demand", Rate: 10,
			Patterns: []PatternThrottles{{Pattern: "AP-01", Calls: 10, Attempts: 14, Retries: 4, Refused: 4, Throttled: 1}},
			Partitions: []PartitionThrottles{{Target: designs.MainTable, Partition: 2, Keys: []string{"HOT", "B"}, Side: "write", Limit: 5,
				First: at(3), FirstSecond: 3, ThrottledSeconds: 4, Refused: 4, Calls: 20, Throttled: 1, HeldUnits: 5,
				DemandPerRequest: 1, ForecastRate: 5, MeasuredRate: 5, Share: 0.125, ForecastShare: 0.5}},
			Keys:       []KeySecond{{designs.MainTable, "HOT", at(3), 2}, {designs.MainTable, "HOT", at(4), 2}},
			Isolations: 1} // no totals: the merge takes them from the patterns' rows
		b := Throttling{Scale: 0.005, Billing: "provisioned", Rate: 30,
			Patterns: []PatternThrottles{{Pattern: "AP-01", Calls: 20, Attempts: 24, Retries: 4, Refused: 6, Throttled: 3},
				{Pattern: "AP-02", Calls: 10, Attempts: 10, Unprocessed: 2, Cancelled: 1}},
			Partitions: []PartitionThrottles{
				{Target: designs.MainTable, Partition: 2, Isolated: true, Keys: []string{"C", "HOT"}, Side: "write", Limit: 5,
					First: at(2), FirstSecond: 2.5, ThrottledSeconds: 3, Refused: 6, Calls: 60, Throttled: 3, HeldUnits: 4,
					DemandPerRequest: 2, Share: 0.375},
				{Target: "GSI1", Partition: 0, Keys: []string{"G"}, Side: "read", Limit: 15, First: at(5), FirstSecond: 5,
					ThrottledSeconds: 1, Refused: 1, Calls: 3, Throttled: 0, HeldUnits: 15, DemandPerRequest: 0.5}},
			Keys:       []KeySecond{{designs.MainTable, "C", at(2), 5}, {designs.MainTable, "HOT", at(3), 1}},
			Isolations: 2}

		got := MergeThrottling(a, b)

		// The table's partition 2, on both: a limit at the merged scale
		// (0.01), demand weighted by rate (10 and 30 requests/s), share by
		// calls (20 and 60).
		rate, limit := 40.0, 10.0
		demand := (1*10 + 2*30) / rate
		hot := PartitionThrottles{Target: designs.MainTable, Partition: 2, Isolated: true, Keys: []string{"HOT", "C", "B"}, Side: "write",
			Limit: limit, First: at(2), FirstSecond: 2.5, ThrottledSeconds: 4, Refused: 10, Calls: 80, Throttled: 4, HeldUnits: 9,
			DemandPerRequest: demand, ForecastRate: limit / demand, MeasuredRate: 9 / demand,
			Share: (0.125*20 + 0.375*60) / 80, ForecastShare: 1 - limit/demand/rate}
		// GSI1's partition 0, on the second alone: its limit doubled, its
		// forecast redone at the mix's whole rate.
		gsiDemand := 0.5
		gsi := PartitionThrottles{Target: "GSI1", Partition: 0, Keys: []string{"G"}, Side: "read", Limit: 30, First: at(5), FirstSecond: 5,
			ThrottledSeconds: 1, Refused: 1, Calls: 3, HeldUnits: 15, DemandPerRequest: gsiDemand,
			ForecastRate: 30 / gsiDemand, MeasuredRate: 15 / gsiDemand}
		Expect(got).To(Equal(Throttling{Scale: 0.01, Billing: "on-demand", Rate: rate,
			Patterns: []PatternThrottles{{Pattern: "AP-01", Calls: 30, Attempts: 38, Retries: 8, Refused: 10, Throttled: 4},
				{Pattern: "AP-02", Calls: 10, Attempts: 10, Unprocessed: 2, Cancelled: 1}},
			Partitions: []PartitionThrottles{hot, gsi},
			// One row per value and second, as one emulator has.
			Keys: []KeySecond{{designs.MainTable, "C", at(2), 5}, {designs.MainTable, "HOT", at(3), 3}, {designs.MainTable, "HOT", at(4), 2}},
			// Both shards isolate the same hot values.
			Isolations: 2,
			Calls:      40, Retries: 8, Refused: 10, Throttled: 4, Unprocessed: 2, Cancelled: 1}))
	})

	It("sums the shards' transaction conflicts, per pattern and per item", func() {
		a := Throttling{Patterns: []PatternThrottles{{Pattern: "AP-10", Conflicts: 3, ConflictCancelled: 1}},
			ConflictItems: []ItemConflicts{{"S#active", 2}, {"A#1", 1}}}
		b := Throttling{Patterns: []PatternThrottles{{Pattern: "AP-10", Conflicts: 2, ConflictCancelled: 2}},
			ConflictItems: []ItemConflicts{{"A#1", 2}}, ConflictsOff: false}
		m := MergeThrottling(a, b)
		Expect(m.Conflicts).To(BeEquivalentTo(5))
		Expect(m.ConflictCancelled).To(BeEquivalentTo(3))
		Expect(m.Patterns).To(ConsistOf(PatternThrottles{Pattern: "AP-10", Conflicts: 5, ConflictCancelled: 3}))
		Expect(m.ConflictItems).To(Equal([]ItemConflicts{{"A#1", 3}, {"S#active", 2}}))
	})

	It("merges nothing into nothing", func() {
		Expect(MergeThrottling()).To(Equal(Throttling{}))
	})

	Describe("the calls throttled away from each value", func() {
		It("lists every value the emulator counts, sorted, as Denied counts it", func() {
			es, clock := onClock(0.01)
			hotRun(clock, es...)
			e := es[0]
			rows := e.DeniedAll()
			Expect(rows).NotTo(BeEmpty(), "the run throttles")
			for i, r := range rows {
				Expect(r.Denial).To(Equal(e.Denied(r.Target, r.Key)), "%s %s", r.Target, r.Key)
				if i > 0 {
					Expect(rows[i-1].Target < r.Target || rows[i-1].Target == r.Target && rows[i-1].Key < r.Key).To(BeTrue(), "sorted")
				}
			}
			lookup := DeniedLookup(rows)
			Expect(MergeDenied(rows)).To(Equal(rows), "one shard's rows, merged")
			for _, r := range rows {
				Expect(lookup(r.Target, r.Key)).To(Equal(r.Denial))
			}
		})

		DescribeTable("sums the shards' rows",
			func(target, key string, want capacity.Denial) {
				row := func(target, key string, d capacity.Denial) capacity.DeniedRow {
					return capacity.DeniedRow{Target: target, Key: key, Denial: d}
				}
				lookup := DeniedLookup(MergeDenied(
					[]capacity.DeniedRow{row(designs.MainTable, "HOT", capacity.Denial{Reads: 1, Writes: 2, RCU: 0.5, WCU: 3}), row("GSI1", "G", capacity.Denial{Writes: 1, WCU: 2}),
						row("OLD", "K", capacity.Denial{Reads: 2, Writes: 1})},
					nil,
					[]capacity.DeniedRow{row(designs.MainTable, "HOT", capacity.Denial{Reads: 3, RCU: 1.5}), row(designs.MainTable, "HOT", capacity.Denial{Reads: 1, UnsizedReads: 1})},
				))
				Expect(lookup(target, key)).To(Equal(want))
			},
			Entry("over shards, and rows repeated in one", designs.MainTable, "HOT", capacity.Denial{Reads: 5, Writes: 2, RCU: 2, WCU: 3, UnsizedReads: 1}),
			Entry("on one shard alone", "GSI1", "G", capacity.Denial{Writes: 1, WCU: 2}),
			Entry("none for a value no shard names", designs.MainTable, "COLD", capacity.Denial{}),
			Entry("a value apart per target", "GSI1", "HOT", capacity.Denial{}),
			Entry("a row of a shard file from before denied calls were priced: its calls unsized", "OLD", "K",
				capacity.Denial{Reads: 2, Writes: 1, UnsizedReads: 2, UnsizedWrites: 1}),
		)
	})
})
