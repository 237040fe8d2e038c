package capacity

import (
	"cmp"
	"slices"
)

// SharedPartition is one partition on which the run's placement put two
// hot keys or more: the keys, heaviest first, the rate of the mix at which
// each alone would fill a partition (Alone, in the keys' order), and the
// rate at which together they fill this one.
type SharedPartition struct {
	Partition int       `json:"partition"`
	Keys      []string  `json:"keys"`
	Alone     []float64 `json:"alone"`
	Rate      float64   `json:"rate"`
}

// shared lists the partitions of space s that hold two hot keys or more,
// the first to fill first.
func (r *run) shared(s *spaceLoad) []SharedPartition {
	var out []SharedPartition
	for part, p := range s.parts {
		if len(p.keys) < 2 {
			continue
		}
		sp := SharedPartition{Partition: part, Rate: r.rateOf(p.Usage)}
		for _, k := range p.keys {
			sp.Keys, sp.Alone = append(sp.Keys, k.Key), append(sp.Alone, r.rateOf(k.Usage))
		}
		out = append(out, sp)
	}
	slices.SortFunc(out, func(a, b SharedPartition) int {
		return cmp.Or(cmp.Compare(a.Rate, b.Rate), cmp.Compare(a.Partition, b.Partition))
	})
	return out
}
