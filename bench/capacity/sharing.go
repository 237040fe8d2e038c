package capacity

import (
	"cmp"
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// Sharing is how a hot partition key value's ceiling moves with the other
// hot keys (the HotKeys heaviest of its table or GSI) sharing its
// partition. Alone is its rate with a partition of its own (the best
// case); Expected with the other hot keys' traffic spread evenly over the
// partitions; Worst with all of them on its partition; both with the light
// keys (all but the hot ones) spread evenly too. Placed is on the
// partition the run's placement (the emulator's, or Placement's) put it
// on, with every key placed there, the hot ones other than itself in
// With. Odds is the chance that two of those hot keys share a partition
// when keys land at random: 1 − P·(P−1)·…·(P−H+1) / P^H for H hot keys on
// P partitions (1 once H passes P: then it says nothing).
type Sharing struct {
	Partitions int      `json:"partitions"`
	HotKeys    int      `json:"hot_keys"`
	Odds       float64  `json:"odds"`
	Alone      float64  `json:"alone"`
	Expected   float64  `json:"expected"`
	Worst      float64  `json:"worst"`
	Placed     float64  `json:"placed"`
	With       []string `json:"with,omitempty"`

	// Shared lists the space's partitions the run's placement put two
	// hot keys or more on; Source says what these figures rest on.
	Shared []SharedPartition `json:"shared,omitempty"`
	Source *rules.Source     `json:"source,omitempty"`
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
// the units of every key placed there, hot and light, and its hot keys
// (the TopN heaviest of the space), heaviest first.
type placedPartition struct {
	ledger.Usage
	keys []*group // heaviest first
}

// maxWith is how many keys a partition names beside its heaviest.
const maxWith = 3

// spaceLoad is one partition space's traffic under the placement.
type spaceLoad struct {
	parts map[int]*placedPartition
	n     int          // partitions
	hot   []*group     // the heaviest keys, at most TopN
	light ledger.Usage // the units of every other key
}

// placed lays every partition group on its partition, once per run: a
// partition's load is every key the run's placement put there, light ones
// too, as the engine placed and served them.
func (r *run) placed() map[string]*spaceLoad {
	if r.loads != nil {
		return r.loads
	}
	r.loads = map[string]*spaceLoad{}
	heavier := func(a, b *group) int {
		return cmp.Or(cmp.Compare(r.partitionUse(b.Usage), r.partitionUse(a.Usage)), cmp.Compare(a.Key, b.Key))
	}
	keep := func(list []*group, g *group, n int) []*group {
		i, _ := slices.BinarySearchFunc(list, g, heavier)
		if i >= n {
			return list
		}
		return slices.Insert(list, i, g)[:min(n, len(list)+1)]
	}
	r.eachGroup(func(g *group) {
		s := r.loads[g.Target]
		if s == nil {
			s = &spaceLoad{parts: map[int]*placedPartition{}}
			r.loads[g.Target] = s
		}
		s.hot = keep(s.hot, g, r.topN())
		part, n := r.place(g.Target, g.Key)
		s.n = n
		s.part(part).Add(g.Usage)
		s.light.Add(g.Usage)
	})
	for _, s := range r.loads {
		for _, g := range s.hot { // heaviest first
			part, _ := r.place(g.Target, g.Key)
			p := s.part(part)
			p.keys = append(p.keys, g)
			s.light.Add(ledger.Usage{RCU: -g.RCU, WCU: -g.WCU})
		}
	}
	return r.loads
}

// part is partition i of s, made at its first key.
func (s *spaceLoad) part(i int) *placedPartition {
	p := s.parts[i]
	if p == nil {
		p = &placedPartition{}
		s.parts[i] = p
	}
	return p
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
func (r *run) rateOf(u ledger.Usage) float64 {
	use := r.partitionUse(r.perRequest(u))
	if use == 0 {
		return 0
	}
	return 1 / use
}

// sharing is g's Sharing in its space s, on partition p under the run's
// placement.
func (r *run) sharing(s *spaceLoad, p *placedPartition, g *group) *Sharing {
	sh := &Sharing{Partitions: s.n, HotKeys: len(s.hot), Odds: ShareOdds(len(s.hot), s.n), Alone: r.rateOf(g.Usage), Placed: r.rateOf(p.Usage)}
	var others ledger.Usage
	for _, h := range s.hot {
		if h != g {
			others.RCU, others.WCU = others.RCU+h.RCU, others.WCU+h.WCU
		}
	}
	n := float64(max(s.n, 1))
	light := ledger.Usage{RCU: s.light.RCU / n, WCU: s.light.WCU / n}
	sh.Expected = r.rateOf(ledger.Usage{RCU: g.RCU + others.RCU/n + light.RCU, WCU: g.WCU + others.WCU/n + light.WCU})
	sh.Worst = r.rateOf(ledger.Usage{RCU: g.RCU + others.RCU + light.RCU, WCU: g.WCU + others.WCU + light.WCU})
	for _, k := range p.keys {
		if k != g && len(sh.With) < maxWith {
			sh.With = append(sh.With, k.Key)
		}
	}
	sh.Shared = r.shared(s)
	return sh
}

// placedRate is the rate at which key's partition of space, with every
// Key the run placed there, reaches its limit.
func (r *run) placedRate(space, key string) float64 {
	part, _ := r.place(space, key)
	if s := r.placed()[space]; s != nil && s.parts[part] != nil {
		return r.rateOf(s.parts[part].Usage) // key's own units among them
	}
	return r.rateOf(r.group(ledger.Slot{Target: space, Key: key}).Usage)
}

// topN is the hot-key list's length.
func (r *run) topN() int {
	if r.TopN > 0 {
		return r.TopN
	}
	return rules.DefaultTopN
}

// partitionCeilings considers, for the ceiling, each partition that holds
// a hot key under the run's placement, at the rate its keys together fill
// it, named by its heaviest key. A partition of light keys alone carries
// its share of traffic spread by hash, which the table's or GSI's own
// throughput bounds (its partitions are as many as that throughput needs).
func (r *run) partitionCeilings(consider func(Ceiling)) {
	for space, s := range r.placed() {
		for _, p := range s.parts {
			if len(p.keys) == 0 {
				continue
			}
			g := p.keys[0]
			rate := r.rateOf(p.Usage)
			if rate <= 0 || math.IsInf(rate, 1) {
				continue
			}
			consider(Ceiling{Target: space, Key: g.Key, Limit: r.partitionLimitText(), Rate: rate, Pattern: g.pattern,
				BackPressure: space != designs.MainTable && p.WCU > 0 && !r.readsBind(p.Usage), Sharing: r.sharing(s, p, g), Side: sideName(!r.readsBind(p.Usage)),
				EventualReads: r.readsBind(p.Usage) && r.eventualReads(space, g.pattern)})
		}
	}
}
