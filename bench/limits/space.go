package limits

import (
	"math"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// The two sides of throughput, throttled apart.
const (
	read  = 0
	write = 1
)

// space is the table (with its LSIs) or one GSI: its partitions and its own
// budget per side.
type space struct {
	name   string
	id     uint32 // name's id in the emulator's names
	arn    string
	index  bool
	limit  [2]float64         // one partition's units per second, scaled
	parts  map[int]*partition // made at first use: a provisioned table may have very many
	count  int                // partitions so far
	hashed int                // partitions placed by hash; later ones hold isolated values
	placed map[string]int     // partition key values isolated on a partition of their own
	seed   uint64             // the placement's seed (Config.PlacementSeed)
	budget [2]bucket          // provisioned throughput with burst, or the on-demand allowance
	grow   *growth            // on-demand only
	sec    int64              // the second cur counts
	cur    [2]float64         // units consumed in sec
}

// partition is one partition: a bucket per side at the partition limit,
// and the units each partition key value consumed in the current second,
// to find a hot partition's hottest value.
type partition struct {
	bucket [2]bucket
	sec    int64
	keys   map[string]float64 // units (both sides, against their limits) per value in sec
	use    float64            // the larger side's share of the limit in sec
	hot    time.Duration      // how long it has been hot without a break
}

// newSpace lays out a table's or a GSI's partitions and budget: a
// provisioned one at its throughput with 300 s of burst, banked in full at
// the start (AWS gives burst on a best-effort basis), any partition free to
// use what the others leave (adaptive capacity) up to its own limit; an
// on-demand one at its warm throughput, growing with its peak.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
func (e *Emulator) newSpace(name, arn string, index bool, now int64) *space {
	k := e.cfg.Scale
	s := &space{name: name, id: e.names.ID(name), arn: arn, index: index, placed: map[string]int{}, parts: map[int]*partition{}, seed: e.cfg.PlacementSeed,
		limit: [2]float64{ddbitem.PartitionRCU * k, ddbitem.PartitionWCU * k}}
	var rcu, wcu float64
	if e.provisioned() {
		rcu, wcu = float64(e.schema.RCU), float64(e.schema.WCU)
		for side, rate := range [2]float64{rcu * k, wcu * k} {
			s.budget[side] = newBucket(rate, rate*ddbitem.BurstSeconds, now)
		}
	} else {
		rcu, wcu = cmpOr(e.cfg.WarmReads, ddbitem.NewOnDemandRRU), cmpOr(e.cfg.WarmWrites, ddbitem.NewOnDemandWRU)
		s.grow = &growth{warm: [2]float64{rcu * k, wcu * k}, quota: [2]float64{ddbitem.OnDemandTableRRU * k, ddbitem.OnDemandTableWRU * k}}
		for side := range 2 {
			a := s.grow.allowance(side)
			s.budget[side] = newBucket(a, a, now)
		}
	}
	n := e.cfg.Partitions
	switch {
	case n > 0:
	case e.provisioned():
		n = capacity.Partitions(int64(rcu), int64(wcu), e.cfg.Bytes)
	default:
		n = capacity.WarmPartitions(rcu, wcu, e.cfg.Bytes)
	}
	s.hashed, s.count = n, n
	return s
}

// part is partition i, full at its first use.
func (s *space) part(i int, now int64) *partition {
	p := s.parts[i]
	if p == nil {
		p = s.newPartition(now)
		s.parts[i] = p
	}
	return p
}

func cmpOr(v, def float64) float64 {
	if v > 0 {
		return v
	}
	return def
}

func (s *space) newPartition(now int64) *partition {
	return &partition{bucket: [2]bucket{newBucket(s.limit[read], s.limit[read], now), newBucket(s.limit[write], s.limit[write], now)}, keys: map[string]float64{}}
}

// partition is the partition that holds partition key value key: its own
// when isolated, else the one its hash falls on.
func (s *space) partition(key string) int {
	if i, ok := s.placed[key]; ok {
		return i
	}
	return capacity.Placement(key, s.hashed, s.seed)
}

// Placement is the partition, of n placed by hash, that holds partition key
// value key until it is isolated, with the default seed: the same in every
// run, so a spec can choose keys that share a partition or do not.
func Placement(key string, n int) int { return capacity.Placement(key, n, 0) }

// consume debits u units of side on the partition of key and on the
// space's budget, and follows the partition's heat.
func (s *space) consume(e *Emulator, now int64, key string, u [2]float64) int {
	s.tick(now)
	i := s.partition(key)
	p := s.part(i, now)
	p.tick(e, s, i, now)
	for side := range 2 {
		if u[side] == 0 {
			continue
		}
		p.bucket[side].take(now, u[side])
		s.spend(now, side, u[side])
		s.cur[side] += u[side]
	}
	share := max(u[read]/s.limit[read], u[write]/s.limit[write])
	p.keys[key] += share
	p.use += share
	return i
}

// spend debits u units of side from the space's budget. An on-demand
// space's allowance serves reads, or writes, or a linear combination of
// the two (capacity.WarmShare): each side's bucket holds the whole
// allowance in its own units, so units of one side take their share from
// the other too. A provisioned space's sides are apart.
func (s *space) spend(now int64, side int, u float64) {
	s.budget[side].take(now, u)
	if s.grow != nil {
		other := 1 - side
		s.budget[other].take(now, u*s.budget[other].rate/s.budget[side].rate)
	}
}

// tick starts a new second of the space: an on-demand space's allowance
// follows its settled peak.
func (s *space) tick(now int64) {
	sec := now / int64(time.Second)
	if sec == s.sec {
		return
	}
	if s.grow != nil && s.sec != 0 {
		s.grow.record(s.sec, s.cur)
		s.grow.settle(sec)
		for side := range 2 {
			s.budget[side].resize(now, s.grow.allowance(side))
		}
	}
	s.sec, s.cur = sec, [2]float64{}
}

// tick starts a new second of partition i: a second at HotShare of the
// limit or more adds to its heat, any other second ends it, and heat that
// lasted IsolateAfter moves its hottest value to a partition of its own.
func (p *partition) tick(e *Emulator, s *space, i int, now int64) {
	sec := now / int64(time.Second)
	if sec == p.sec {
		return
	}
	switch {
	case p.sec != 0 && sec == p.sec+1 && p.use >= HotShare:
		p.hot += time.Second
	default:
		p.hot = 0
	}
	if e.cfg.IsolateAfter > 0 && p.hot >= e.cfg.IsolateAfter && len(p.keys) > 1 {
		s.isolate(hottest(p.keys), now)
		e.m.isolated(s)
		p.hot = 0
	}
	p.sec, p.use = sec, 0
	clear(p.keys)
}

// isolate moves partition key value key to a new partition of its own.
func (s *space) isolate(key string, now int64) {
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

// growth is how an on-demand table or GSI comes to serve more: at once up
// to ddbitem.GrowFactor times its peak, once that peak is ddbitem.GrowSeconds old; never more than its
// quota, never less than its warm throughput.
type growth struct {
	warm, quota [2]float64
	peak        [2]float64 // the highest second at least ddbitem.GrowSeconds old
	seconds     []usedSecond
}

type usedSecond struct {
	sec  int64
	used [2]float64
}

func (g *growth) record(sec int64, used [2]float64) {
	g.seconds = append(g.seconds, usedSecond{sec, used})
}

// settle folds the seconds older than ddbitem.GrowSeconds into the peak.
func (g *growth) settle(now int64) {
	old := now - ddbitem.GrowSeconds
	n := 0
	for n < len(g.seconds) && g.seconds[n].sec <= old {
		for side := range 2 {
			g.peak[side] = max(g.peak[side], g.seconds[n].used[side])
		}
		n++
	}
	g.seconds = g.seconds[n:]
}

// allowance is what the space serves per second on side.
func (g *growth) allowance(side int) float64 {
	return min(g.quota[side], max(g.warm[side], ddbitem.GrowFactor*g.peak[side]))
}
