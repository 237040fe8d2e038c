package throughput

import (
	"strconv"
	"testing"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// ramp writes fresh partition key values (a new one each call, as a load
// test with UUID keys does) to s from second from on: the demand rises
// linearly from 0 to top WCU/s over rise seconds and holds there until
// second from+seconds, in calls calls a second spread evenly over it. A
// refused call is dropped. It returns, per second, the units asked and
// served.
func ramp(s *Space, from, rise, seconds int, top float64, calls int) (asked, served []float64) {
	asked, served = make([]float64, seconds), make([]float64, seconds)
	for t := range seconds {
		demand := top * min(1, float64(t+1)/float64(rise))
		u := demand / float64(calls)
		for c := range calls {
			now := int64(from+t)*sec + int64(c)*sec/int64(calls)
			key := "k" + strconv.Itoa(t*calls+c) + "/" + strconv.Itoa(from)
			asked[t] += u
			if _, ok := s.Admit(key, Write, now); !ok {
				continue
			}
			s.Consume(key, [2]float64{0, u}, now)
			served[t] += u
		}
	}
	return asked, served
}

func sum(v []float64) (n float64) {
	for _, x := range v {
		n += x
	}
	return n
}

// A new on-demand table written with fresh keys ramped over one minute
// serves 3,000 writes/s without a refusal, on its four partitions, and
// holds 4,000 or 5,000 near its 4,000 WRU in the first minutes: the public
// measurement behind ddbitem.OnDemandRampWRU (no throttling up to 3,000,
// no more than about 4,000 served). A table served to its warm
// throughput grows from there at the pace of one doubling in 30 minutes
// (about 4,160 over the third minute, within 5 %), splitting its
// partitions as it passes their limits.
func TestNewOnDemandTableRampedOverAMinute(t *testing.T) {
	for _, c := range []struct {
		top        float64
		min, max   float64 // served a second over the last minute
		partitions int
	}{{3000, 3000, 3000, 4}, {4000, 3700, 4000, 8}, {5000, 3700, 4200, 8}} {
		s := NewSpace(Config{Settings: Settings{IsolateAfter: -1}}, sec)
		asked, served := ramp(s, 1, 60, 180, c.top, 200)
		if v := sum(served[120:]) / 60; v < c.min-1e-6 || v > c.max+1e-6 {
			t.Errorf("ramped to %.0f writes/s: served %.0f WCU/s over the third minute, want %.0f to %.0f", c.top, v, c.min, c.max)
		}
		t.Logf("ramped to %.0f writes/s: %.0f WCU/s served over the third minute, %.2f%% refused", c.top, sum(served[120:])/60, 100*(1-sum(served)/sum(asked)))
		if c.top == 3000 && sum(served) < sum(asked)-1e-6 {
			t.Errorf("ramped to 3,000 writes/s: %.0f of %.0f WCU refused, want none", sum(asked)-sum(served), sum(asked))
		}
		if s.Count() != c.partitions {
			t.Errorf("ramped to %.0f writes/s: %d partitions after 3 minutes, want %d", c.top, s.Count(), c.partitions)
		}
	}
}

// A new on-demand table offered 40,000 WCU/s of fresh keys from its
// first second serves its warm 4,000, then never more than double what it
// served 30 minutes before: its previous peak is what it consumed, not
// what it was asked and refused (AWS: up to double the previous peak; the
// public measurements: a new table handles its previously consumed peak
// and more). Counting the refused units, it served 4,000 for 30 minutes
// and then all 40,000 in one step.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
// https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/
func TestOnDemandPeakIsWhatWasServed(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{IsolateAfter: -1}}, sec)
	const seconds = 40 * 60
	asked, served := ramp(s, 1, 1, seconds, ddbitem.OnDemandRampWRU, 400)
	if v := sum(served[30:90]) / 60; v < 3900 || v > 4200 {
		t.Errorf("first minutes: served %.0f WCU/s of the %.0f asked, want the warm 4,000", v, asked[60])
	}
	minute := func(m int) float64 { return sum(served[60*m:60*m+60]) / 60 }
	for m := 30; m < seconds/60; m++ {
		if now, was := minute(m), minute(m-30); now > 2*was*1.02 {
			t.Fatalf("minute %d: served %.0f WCU/s, more than double the %.0f it served 30 minutes before", m, now, was)
		}
	}
	if v := served[31*60]; v < 7000 || v > 9000 {
		t.Errorf("after 31 minutes: served %.0f WCU/s, want about 8,000 (double the 4,000 it served)", v)
	}
	t.Logf("served %.0f, %.0f, %.0f WCU/s after 1, 31 and 39 minutes", served[60], served[31*60], served[39*60])
}

// A new on-demand table ramped from 0 to 40,000 writes/s of fresh keys
// over two hours serves (nearly) all of it at the end, as the public
// measurement did (ddbitem.OnDemandRampWRU, OnDemandRampSeconds): its
// partitions split as it grows, each value staying on its partition or
// moving to a new one, and a single hot value on the grown table is still
// held to one partition's 1,000 WCU/s.
func TestNewOnDemandTableRampedToTheQuota(t *testing.T) {
	s := NewSpace(Config{Settings: Settings{IsolateAfter: -1}}, sec)
	keys := make([]string, 2000)
	before := make([]int, len(keys))
	for i := range keys {
		keys[i] = "v" + strconv.Itoa(i)
		before[i] = s.Partition(keys[i])
	}
	const rise = ddbitem.OnDemandRampSeconds
	asked, served := ramp(s, 1, rise, rise, ddbitem.OnDemandRampWRU, 400)
	var a, v float64
	for i := rise - 60; i < rise; i++ {
		a, v = a+asked[i], v+served[i]
	}
	if v < 0.95*a {
		t.Errorf("last minute of the ramp: served %.0f of %.0f WCU/s (%.1f%%), want at least 95%%", v/60, a/60, 100*v/a)
	}
	t.Logf("served %.1f%% of the ramp, %.1f%% of its last minute, on %d partitions", 100*sum(served)/sum(asked), 100*v/a, s.Count())
	if n := s.Count(); n < ddbitem.OnDemandRampWRU/ddbitem.PartitionWCU {
		t.Errorf("%d partitions at 40,000 WCU/s, want at least 40", n)
	}
	moved := 0
	for i, k := range keys {
		switch p := s.Partition(k); {
		case p == before[i]:
		case p >= 4:
			moved++
		default:
			t.Fatalf("%s moved from partition %d to %d, an older one: a split moves a value only to a new partition", k, before[i], p)
		}
	}
	if moved == 0 || moved == len(keys) {
		t.Errorf("%d of %d values moved in the splits, want some and not all", moved, len(keys))
	}
	from := int64(1+rise) * sec
	for i := range int64(60) {
		var got float64
		for c := range int64(50) {
			now := from + i*sec + c*sec/50
			if _, ok := s.Admit("HOT", Write, now); ok {
				s.Consume("HOT", [2]float64{0, 30}, now) // 1,500 WCU/s asked
				got += 30
			}
		}
		if i > 1 && (got > ddbitem.PartitionWCU+30 || got < ddbitem.PartitionWCU-30) {
			t.Fatalf("second %d on the grown table: one value asking 1,500 WCU/s served %.0f, want its partition's 1,000", i, got)
		}
	}
}
