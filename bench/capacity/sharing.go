package capacity

import (
	"cmp"
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// Sharing is how a hot partition key value's ceiling moves with the other
// hot keys (the HotKeys heaviest of its table or GSI) sharing its
// partition. Alone is its rate with a partition of its own (the best
// case); Expected with the other hot keys' traffic spread evenly over the
// partitions; Worst with all of them on its partition; Placed on the partition the run's placement (the
// emulator's, or Placement's) put it on, with the keys in With. Odds is
// the chance that two of those hot keys share a partition when keys land
// at random: 1 − P·(P−1)·…·(P−H+1) / P^H for H hot keys on P partitions.
type Sharing struct {
	Partitions int      `json:"partitions"`
	HotKeys    int      `json:"hot_keys"`
	Odds       float64  `json:"odds"`
	Alone      float64  `json:"alone"`
	Expected   float64  `json:"expected"`
	Worst      float64  `json:"worst"`
	Placed     float64  `json:"placed"`
	With       []string `json:"with,omitempty"`
}

// ShareOdds is the chance that two of h keys placed at random on p
// partitions share one.
func ShareOdds(h, p int) float64 {
	if h > p {
		return 1
	}
	apart := 1.0
	for i := range h {
		apart *= float64(p-i) / float64(p)
	}
	return 1 - apart
}

// placedPartition is one partition of a space under the run's placement:
// the units of the space's hot keys placed there, heaviest first. Only the
// hot keys (the TopN heaviest of the space) are placed: the many light
// keys of a table are taken as spread over the partitions its growth adds.
type placedPartition struct {
	usage
	keys []*group // heaviest first
}

// maxWith is how many keys a partition names beside its heaviest.
const maxWith = 3

// spaceLoad is one partition space's traffic under the placement.
type spaceLoad struct {
	parts map[int]*placedPartition
	n     int      // partitions
	hot   []*group // the heaviest keys, at most TopN
}

// placed lays every partition group on its partition, once per run.
func (r *run) placed() map[string]*spaceLoad {
	if r.loads != nil {
		return r.loads
	}
	r.loads = map[string]*spaceLoad{}
	heavier := func(a, b *group) int {
		return cmp.Or(cmp.Compare(r.partitionUse(b.usage), r.partitionUse(a.usage)), cmp.Compare(a.key, b.key))
	}
	keep := func(list []*group, g *group, n int) []*group {
		i, _ := slices.BinarySearchFunc(list, g, heavier)
		if i >= n {
			return list
		}
		return slices.Insert(list, i, g)[:min(n, len(list)+1)]
	}
	r.eachGroup(func(g *group) {
		s := r.loads[g.target]
		if s == nil {
			s = &spaceLoad{parts: map[int]*placedPartition{}}
			r.loads[g.target] = s
		}
		s.hot = keep(s.hot, g, r.topN())
	})
	for _, s := range r.loads {
		for _, g := range s.hot { // heaviest first
			part, n := r.place(g.target, g.key)
			s.n = n
			p := s.parts[part]
			if p == nil {
				p = &placedPartition{}
				s.parts[part] = p
			}
			p.rcu, p.wcu = p.rcu+g.rcu, p.wcu+g.wcu
			p.keys = append(p.keys, g)
		}
	}
	return r.loads
}

// place is the partition of space that holds key, and how many it has.
func (r *run) place(space, key string) (part, n int) {
	if r.Placed != nil {
		return r.Placed(space, key)
	}
	n = r.partitionCount(space)
	return throughput.Placement(key, n, r.PlacementSeed), n
}

// partitionCount is how many partitions space has by AWS's rules: a
// provisioned table's by its throughput and data, an on-demand one's by
// its warm throughput, or those it had provisioned before it was switched.
func (r *run) partitionCount(space string) int {
	if r.provisioned() {
		bytes := int64(0)
		if space == designs.MainTable {
			bytes = r.TableBytes
		}
		return throughput.Partitions(r.Schema.RCU, r.Schema.WCU, bytes)
	}
	return r.spaceConfig().OnDemandPartitions()
}

// rateOf is the request rate of the mix at which u units fill a partition.
func (r *run) rateOf(u usage) float64 {
	use := r.partitionUse(r.perRequest(u))
	if use == 0 {
		return 0
	}
	return 1 / use
}

// sharing is g's Sharing in its space s, on partition p under the run's
// placement.
func (r *run) sharing(s *spaceLoad, p *placedPartition, g *group) *Sharing {
	sh := &Sharing{Partitions: s.n, HotKeys: len(s.hot), Odds: ShareOdds(len(s.hot), s.n), Alone: r.rateOf(g.usage), Placed: r.rateOf(p.usage)}
	var others usage
	for _, h := range s.hot {
		if h != g {
			others.rcu, others.wcu = others.rcu+h.rcu, others.wcu+h.wcu
		}
	}
	n := float64(max(s.n, 1))
	sh.Expected = r.rateOf(usage{g.rcu + others.rcu/n, g.wcu + others.wcu/n})
	sh.Worst = r.rateOf(usage{g.rcu + others.rcu, g.wcu + others.wcu})
	for _, k := range p.keys {
		if k != g && len(sh.With) < maxWith {
			sh.With = append(sh.With, k.key)
		}
	}
	return sh
}

// placedRate is the rate at which key's partition of space, with the hot
// keys the run placed there, reaches its limit.
func (r *run) placedRate(space, key string) float64 {
	g := r.group(slot{space, key})
	s := r.placed()[space]
	if s == nil {
		return r.rateOf(g.usage)
	}
	part, _ := r.place(space, key)
	p := s.parts[part]
	if p == nil {
		return r.rateOf(g.usage)
	}
	for _, k := range p.keys {
		if k.key == key {
			return r.rateOf(p.usage)
		}
	}
	return r.rateOf(usage{p.rcu + g.rcu, p.wcu + g.wcu})
}

// topN is the hot-key list's length.
func (r *run) topN() int {
	if r.TopN > 0 {
		return r.TopN
	}
	return DefaultTopN
}

// partitionCeilings considers, for the ceiling, each partition under the
// run's placement at the rate its keys together fill it, named by its
// heaviest key.
func (r *run) partitionCeilings(consider func(Ceiling)) {
	for space, s := range r.placed() {
		for _, p := range s.parts {
			g := p.keys[0]
			rate := r.rateOf(p.usage)
			if rate <= 0 || math.IsInf(rate, 1) {
				continue
			}
			consider(Ceiling{Target: space, Key: g.key, Limit: r.partitionLimitText(), Rate: rate, Pattern: g.pattern,
				BackPressure: space != designs.MainTable && p.wcu > 0, Sharing: r.sharing(s, p, g),
				EventualReads: r.readsBind(p.usage) && r.eventualReads(space, g.pattern)})
		}
	}
}
