package capacity

import (
	"cmp"
	"slices"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// MinGrowthWrites is how many of an item's writes must have enlarged it
// before its growth is projected to the 400 KB limit (and likewise for an
// item collection or a GSI partition key value). An order that moves
// through four statuses, a service that gets its voucher, grows a few
// times and stops; a set or list that patterns append to grows with every
// call, hundreds of times in a run.
const MinGrowthWrites = 10

// growth lists the items and item collections the run grew, soonest to
// reach its limit first, at most TopN of each kind. Growth per second is
// the bytes the run added over the run's length: traffic, not wall time,
// drives it, so at the target rate it grows in proportion.
func (r *run) growth() []Growth {
	if r.seconds <= 0 {
		return nil
	}
	scale := 0.0
	if r.rate > 0 && r.TargetRate > 0 {
		scale = r.TargetRate / r.rate
	}
	project := func(g Growth) Growth {
		g.BytesPerSecond = float64(g.Added) / r.seconds
		if g.Limit > 0 && g.BytesPerSecond > 0 {
			left := max(0, float64(g.Limit)-float64(g.Bytes))
			g.SecondsToLimit = left / g.BytesPerSecond
			if scale > 0 {
				g.SecondsAtTarget = g.SecondsToLimit / scale
			}
		}
		return g
	}
	var items, colls []Growth
	r.l.EachItem(func(id string, it ledger.ItemTrack) {
		// An item that grew a few times changed state; only one that keeps
		// growing grows with traffic.
		if it.Last > it.First && it.Grows >= MinGrowthWrites {
			pk, sk := r.l.ItemKeys(id, it)
			items = append(items, project(Growth{Kind: "item", Key: pk, Sort: sk, Bytes: int(it.Last),
				Added: int(it.Last - it.First), Limit: ddbitem.MaxItemBytes}))
		}
	})
	limit := int64(0)
	if len(r.Schema.LSIs) > 0 {
		limit = ddbitem.MaxCollectionBytes
	}
	for pk, c := range r.l.Collections().All() {
		// Each order a run creates starts a collection of its own, which a
		// few writes fill: growth matters when writes keep adding to one.
		if c.Added > 0 && c.Grows >= MinGrowthWrites {
			colls = append(colls, project(Growth{Kind: "collection", Key: r.l.Names().Text(pk), Bytes: c.Known, Added: c.Added, Limit: limit}))
		}
	}
	var keys []Growth
	for at, k := range r.l.IndexKeys().All() {
		if k.Added > 0 && k.Grows >= MinGrowthWrites {
			at := r.l.SlotOf(at)
			keys = append(keys, project(Growth{Kind: "index key", Target: at.Target, Key: at.Key, Bytes: max(0, k.Known), Added: k.Added}))
		}
	}
	return append(append(r.top(items), r.top(colls)...), r.top(keys)...)
}

// top orders growths soonest-to-limit first (then fastest), keeping TopN.
func (r *run) top(gs []Growth) []Growth {
	slices.SortFunc(gs, func(a, b Growth) int {
		return cmp.Or(cmp.Compare(toLimit(a), toLimit(b)), cmp.Compare(b.BytesPerSecond, a.BytesPerSecond),
			cmp.Compare(a.Key, b.Key), cmp.Compare(a.Sort, b.Sort))
	})
	n := r.TopN
	if n <= 0 {
		n = rules.DefaultTopN
	}
	return gs[:min(n, len(gs))]
}

// toLimit sorts growths without a limit after those with one.
func toLimit(g Growth) float64 {
	if g.SecondsToLimit == 0 {
		return 1e300
	}
	return g.SecondsToLimit
}
