package throughput

import (
	"math"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Defaults of Config.
const (
	// DefaultIsolateAfter is how long a partition stays hot before its
	// hottest partition key value is isolated. Inferred: AWS says adaptive
	// capacity isolates frequently accessed items, not when.
	DefaultIsolateAfter = 5 * time.Minute
	// HotShare is the share of a partition's limit, on either side, a
	// second must reach to count as hot. Inferred, as IsolateAfter.
	HotShare = 0.8
)

// Config is one table's or GSI's throughput: its billing and provisioned
// units, which come from the schema, and the run's Settings.
type Config struct {
	Settings
	// Provisioned, with RCU and WCU, is a provisioned table or GSI;
	// otherwise on-demand, at WarmReads and WarmWrites (0: a new table's
	// 12,000 and 4,000).
	Provisioned bool
	RCU, WCU    float64
}

// Space is one table (with its LSIs, which live in its partitions) or one
// GSI: its partitions and its own budget per side. It is not safe for
// concurrent use.
type Space struct {
	limit        [2]float64         // one partition's units per second, scaled
	parts        map[int]*partition // made at first use: a provisioned table may have very many
	count        int                // partitions so far
	hashed       int                // slots placed by hash: Placement's n
	slots        []int              // the partition of each slot once a split renumbered them; nil: slot i is partition i
	fixed        bool               // Config.Partitions set: no split as the space grows
	placed       map[string]int     // partition key values isolated on a partition of their own
	seed         uint64
	isolateAfter time.Duration
	budget       [2]Bucket  // provisioned throughput with burst, or the on-demand allowance
	ceil         [2]Bucket  // an on-demand maximum throughput; rate 0: none
	grow         *growth    // on-demand only
	combined     bool       // the budget serves reads or writes or a linear combination: a new table's, not a switched one's
	sec          int64      // the second cur counts
	cur          [2]float64 // units consumed in sec
}

// partition is one partition: a bucket per side at the partition limit,
// and the units each partition key value consumed in the current second,
// to find a hot partition's hottest value.
type partition struct {
	bucket [2]Bucket
	sec    int64
	keys   map[string]float64 // units (both sides, against their limits) per value in sec
	used   [2]float64         // units of each side in sec
	hot    time.Duration      // how long it has been hot without a break
}

// NewSpace lays out a table's or a GSI's partitions and budget: a
// provisioned one at its throughput with 300 s of burst, banked in full at
// the start (AWS gives burst on a best-effort basis), any partition free to
// use what the others leave (adaptive capacity) up to its own limit; an
// on-demand one at its warm throughput, growing with its peak.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
func NewSpace(c Config, now int64) *Space {
	k := Scale(c.Scale)
	s := &Space{placed: map[string]int{}, parts: map[int]*partition{}, seed: c.PlacementSeed, isolateAfter: c.IsolateAfter,
		limit: [2]float64{ddbitem.PartitionRCU * k, ddbitem.PartitionWCU * k}}
	if s.isolateAfter == 0 {
		s.isolateAfter = DefaultIsolateAfter
	}
	rcu, wcu := c.RCU, c.WCU
	if c.Provisioned {
		for side, rate := range [2]float64{rcu * k, wcu * k} {
			s.budget[side] = NewBucket(rate, rate*ddbitem.BurstSeconds, now)
		}
	} else {
		rcu, wcu = c.Warm()
		s.combined = c.SwitchedRCU == 0 && c.SwitchedWCU == 0
		s.grow = &growth{warm: [2]float64{rcu * k, wcu * k}, quota: [2]float64{ddbitem.OnDemandTableRRU * k, ddbitem.OnDemandTableWRU * k},
			cap: [2]float64{c.MaxReads * k, c.MaxWrites * k}}
		for side := range 2 {
			a := s.grow.allowance(side)
			s.budget[side] = NewBucket(a, a, now)
			if m := s.grow.cap[side]; m > 0 {
				s.ceil[side] = NewBucket(m, m, now)
			}
		}
	}
	n := c.Partitions
	switch {
	case n > 0:
	case c.Provisioned:
		n = Partitions(int64(rcu), int64(wcu), c.Bytes)
	default:
		n = c.OnDemandPartitions()
	}
	s.hashed, s.count, s.fixed = n, n, c.Partitions > 0
	return s
}

// Warm is the warm throughput an on-demand space of c starts at, read and
// write units per second before Scale: WarmReads and WarmWrites, else a
// new table's; a table switched from provisioned, each side at least what
// it was provisioned with (its previous peak is half that, and it serves
// twice its previous peak at once). Taking the higher side by side is
// inferred.
// Sources: https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/HowItWorks.ReadWriteCapacityMode.md
// (initial throughput of a table switched to on-demand)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-switching-capacity-modes.html
// (a table switched at 8,000 WCU and 24,000 RCU goes on serving them)
func (c Config) Warm() (reads, writes float64) {
	return max(or(c.WarmReads, ddbitem.NewOnDemandRRU), c.SwitchedRCU), max(or(c.WarmWrites, ddbitem.NewOnDemandWRU), c.SwitchedWCU)
}

// OnDemandPartitions is how many partitions an on-demand space of c
// starts with: its warm throughput's (WarmPartitions), or the partitions a
// table switched from provisioned had (Partitions), which it keeps,
// whichever are more.
// Source: https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
// (a table switched to on-demand keeps its partitions)
func (c Config) OnDemandPartitions() int {
	r, w := c.Warm()
	return max(WarmPartitions(r, w, c.Bytes), Partitions(int64(c.SwitchedRCU), int64(c.SwitchedWCU), c.Bytes))
}

func or(v, def float64) float64 {
	if v > 0 {
		return v
	}
	return def
}

// Limit is one partition's units per second, per side.
func (s *Space) Limit() [2]float64 { return s.limit }

// Count is how many partitions the space has, isolated ones included.
func (s *Space) Count() int { return s.count }

// OnDemand reports whether the space serves on demand.
func (s *Space) OnDemand() bool { return s.grow != nil }

// AtQuota reports whether an on-demand space's allowance on side has
// reached the account's table quota.
func (s *Space) AtQuota(side int) bool {
	return s.grow != nil && s.grow.allowance(side) >= s.grow.quota[side]
}

// OverMax reports whether an on-demand space's maximum throughput on side
// has nothing left at now: what refused a call Admit refused by the budget.
func (s *Space) OverMax(side int, now int64) bool {
	return s.ceil[side].rate > 0 && !s.ceil[side].Open(now)
}

// Partition is the partition that holds partition key value key: its own
// when isolated, else the one its hash falls on.
func (s *Space) Partition(key string) int {
	if i, ok := s.placed[key]; ok {
		return i
	}
	i := Placement(key, s.hashed, s.seed)
	if s.slots != nil {
		return s.slots[i]
	}
	return i
}

// Admit decides an attempt on side of partition key value key ("" for a
// Scan, which only the budget admits): ok when the budget and the
// partition both have units left; otherwise part is the partition that
// refused, -1 for the budget.
func (s *Space) Admit(key string, side int, now int64) (part int, ok bool) {
	s.Tick(now)
	if !s.budget[side].Open(now) || s.OverMax(side, now) {
		return -1, false
	}
	if key == "" {
		return -1, true
	}
	i := s.Partition(key)
	if !s.part(i, now).bucket[side].Open(now) {
		return i, false
	}
	return i, true
}

// Hold takes u units of side from the budget and, unless key is "", from
// key's partition, for a call in flight; it returns that partition, -1
// for none. Release gives them back.
func (s *Space) Hold(key string, side int, now int64, u float64) int {
	s.spend(now, side, u)
	if key == "" {
		return -1
	}
	i := s.Partition(key)
	s.part(i, now).bucket[side].Take(now, u)
	return i
}

// Release gives back what Hold took on partition part (-1: the budget
// alone).
func (s *Space) Release(part, side int, now int64, u float64) {
	s.spend(now, side, -u)
	if part >= 0 {
		s.part(part, now).bucket[side].Take(now, -u)
	}
}

// Drain empties side of the budget, or of partition part, down to units
// (burst spent, a partition in debt): for a spec that starts there.
func (s *Space) Drain(part, side int, now int64, units float64) {
	b := &s.budget[side]
	if part >= 0 {
		b = &s.part(part, now).bucket[side]
	}
	b.refill(now)
	b.tokens = units
}

// Consume debits u units on the partition of key and on the space's
// budget, follows the partition's heat, and returns the partition; isolated
// says the second that began moved a hot value to a partition of its own
// (the newest, Count()-1). Key "" (a Scan, a charge no key addressed) is
// the budget's alone, as in Admit and Hold: part -1.
func (s *Space) Consume(key string, u [2]float64, now int64) (part int, isolated bool) {
	s.Tick(now)
	part = -1
	var p *partition
	if key != "" {
		part = s.Partition(key)
		p = s.part(part, now)
		isolated = s.tickPartition(p, now)
		p.keys[key] += max(u[Read]/s.limit[Read], u[Write]/s.limit[Write])
	}
	for side := range 2 {
		if u[side] == 0 {
			continue
		}
		s.spend(now, side, u[side])
		s.cur[side] += u[side]
		if p != nil {
			p.bucket[side].Take(now, u[side])
			p.used[side] += u[side]
		}
	}
	return part, isolated
}

// part is partition i, full at its first use.
func (s *Space) part(i int, now int64) *partition {
	p := s.parts[i]
	if p == nil {
		p = s.newPartition(now)
		s.parts[i] = p
	}
	return p
}

func (s *Space) newPartition(now int64) *partition {
	return &partition{bucket: [2]Bucket{NewBucket(s.limit[Read], s.limit[Read], now), NewBucket(s.limit[Write], s.limit[Write], now)}, keys: map[string]float64{}}
}

// spend debits u units of side from the space's budget. A new on-demand
// space's allowance serves reads, or writes, or a linear combination of
// the two: each side's bucket holds the whole allowance in its own units,
// so units of one side take their share from the other too. A table
// switched from provisioned sustains at least its old provisioned reads
// and writes at once, so its sides are apart, as a provisioned space's
// and an on-demand maximum's are.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
// (a new table: a linear combination)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-switching-capacity-modes.html
// (switched at 8,000 WCU and 24,000 RCU: at least both, sustained)
func (s *Space) spend(now int64, side int, u float64) {
	s.budget[side].Take(now, u)
	if s.combined {
		other := 1 - side
		s.budget[other].Take(now, u*s.budget[other].rate/s.budget[side].rate)
	}
	if s.grow != nil && s.ceil[side].rate > 0 {
		s.ceil[side].Take(now, u)
	}
}

// Tick starts a new second of the space when now is in one: an on-demand
// space's allowance follows its settled peak.
func (s *Space) Tick(now int64) {
	sec := now / int64(time.Second)
	if sec <= s.sec { // a time behind the current second counts in it
		return
	}
	if s.grow != nil && s.sec != 0 {
		// What the allowance granted: a call let in on the last units of
		// a bucket may take it into debt, which the next second repays;
		// that is no peak the service served.
		s.grow.record(s.sec, [2]float64{min(s.cur[Read], s.budget[Read].rate), min(s.cur[Write], s.budget[Write].rate)})
		s.grow.settle(sec)
		for side := range 2 {
			s.budget[side].resize(now, s.grow.allowance(side))
		}
		if !s.fixed {
			s.splitFor()
		}
	}
	s.sec, s.cur = sec, [2]float64{}
}

// splitFor splits every partition placed by hash in ddbitem.PartitionSplit
// until they cover the allowance at the partition limit, on either side:
// an on-demand table adds partitions when its throughput reaches a new
// high-water mark, and never merges them. A split cuts each partition's
// hash range in equal parts, so a value stays on its partition or moves
// to one of the new ones (Placement's multiply-high maps slot j of n onto
// k·j … k·j+k−1 of k·n); isolated values stay where they are, and one
// value never gets more than one partition's limit.
// Source: https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
// (partitions added at a new high-water mark, split, never merged). Which
// partitions split, into how many, and that they split as the allowance
// grows rather than later, are inferred.
func (s *Space) splitFor() {
	need := max(s.budget[Read].rate/s.limit[Read], s.budget[Write].rate/s.limit[Write])
	const k = ddbitem.PartitionSplit
	for float64(s.hashed) < need*(1-1e-9) {
		slots := make([]int, k*s.hashed)
		for j := range s.hashed {
			slots[k*j] = j
			if s.slots != nil {
				slots[k*j] = s.slots[j]
			}
			for i := 1; i < k; i++ {
				slots[k*j+i] = s.count
				s.count++
			}
		}
		s.slots, s.hashed = slots, k*s.hashed
	}
}

// tickPartition starts a new second of p: a second at HotShare of the
// limit or more adds to its heat, any other second ends it, and heat that
// lasted isolateAfter moves its hottest value to a partition of its own.
func (s *Space) tickPartition(p *partition, now int64) (isolated bool) {
	sec := now / int64(time.Second)
	if sec <= p.sec { // a time behind the current second counts in it
		return false
	}
	switch {
	case p.sec != 0 && sec == p.sec+1 && max(p.used[Read]/s.limit[Read], p.used[Write]/s.limit[Write]) >= HotShare:
		p.hot += time.Second
	default:
		p.hot = 0
	}
	if s.isolateAfter > 0 && p.hot >= s.isolateAfter && len(p.keys) > 1 {
		s.isolate(hottest(p.keys), now)
		p.hot = 0
		isolated = true
	}
	p.sec, p.used = sec, [2]float64{}
	clear(p.keys)
	return isolated
}

// isolate moves partition key value key to a new partition of its own.
func (s *Space) isolate(key string, now int64) {
	s.placed[key] = s.count
	s.parts[s.count] = s.newPartition(now)
	s.count++
}

// hottest is the value with the most units, the smallest on a tie.
func hottest(keys map[string]float64) string {
	best, most := "", math.Inf(-1)
	for k, u := range keys {
		if u > most || (u == most && k < best) {
			best, most = k, u
		}
	}
	return best
}

// growth is how an on-demand table or GSI comes to serve more: up to
// ddbitem.GrowFactor times its previous peak at once, its peak being what
// it consumed, never what it was asked and refused (a new table offered
// 40,000 WCU/s from the start serves its 4,000, then double what it
// served); never more than its quota, nor past its maximum throughput
// (cap), never less than its warm throughput. A second consumed counts at
// once, and grows toward GrowFactor times itself over ddbitem.GrowSeconds
// (by GrowFactor^(age ÷ GrowSeconds)): traffic never passes double what
// was served 30 minutes before, and a steady ramp is followed without a
// step. That the peak is what was consumed rests on AWS ("up to double
// the previous peak") and on public measurements of new tables (they
// handle the previously consumed peak and more); the continuous pace
// within the 30 minutes is inferred: AWS gives the window, not a pace.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
// https://theburningmonk.com/2019/03/understanding-the-scaling-behaviour-of-dynamodb-ondemand-tables/
type growth struct {
	warm, quota [2]float64
	cap         [2]float64 // the maximum throughput; 0: none
	peak        [2]float64 // the highest second consumed at least ddbitem.GrowSeconds old
	recent      [2]float64 // what the younger seconds allow at the last settle
	young       [2][]usedSecond
}

// usedSecond is the units one side consumed in second sec.
type usedSecond struct {
	sec  int64
	used float64
}

// grown is what u allows at now: u.used grown by its age.
func (u usedSecond) grown(now int64) float64 {
	return u.used * math.Pow(ddbitem.GrowFactor, float64(now-u.sec)/ddbitem.GrowSeconds)
}

// record adds second sec's consumption. Each side keeps only the seconds
// that may yet allow the most: a second that consumed at least what an
// older one grew to by then allows at least as much from then on.
func (g *growth) record(sec int64, used [2]float64) {
	for side := range 2 {
		q := g.young[side]
		u := usedSecond{sec, used[side]}
		for len(q) > 0 && u.used >= q[len(q)-1].grown(sec) {
			q = q[:len(q)-1]
		}
		g.young[side] = append(q, u)
	}
}

// settle folds the seconds older than ddbitem.GrowSeconds into the peak;
// the oldest younger one, grown by its age, allows the most of them.
func (g *growth) settle(now int64) {
	old := now - ddbitem.GrowSeconds
	for side := range 2 {
		q := g.young[side]
		for len(q) > 0 && q[0].sec <= old {
			g.peak[side] = max(g.peak[side], q[0].used)
			q = q[1:]
		}
		g.young[side], g.recent[side] = q, 0
		if len(q) > 0 {
			g.recent[side] = q[0].grown(now)
		}
	}
}

// allowance is what the space serves per second on side (the maximum
// throughput, a bucket of its own, may serve less).
func (g *growth) allowance(side int) float64 {
	a := min(g.quota[side], max(g.warm[side], ddbitem.GrowFactor*g.peak[side], g.recent[side]))
	if c := g.cap[side]; c > 0 {
		a = min(a, max(g.warm[side], c))
	}
	return a
}

// Scale is the factor on DynamoDB's limits a setting asks for: 0 (unset)
// or less means 1, real DynamoDB's own. A run's limits are settled through
// here once (bench.RunLimited; an emulator's own settings in emulate.New),
// and read as settled after; a Settings or capacity.Model made without a
// scale reads its zero value through here too.
func Scale(k float64) float64 {
	if k <= 0 {
		return 1
	}
	return k
}
