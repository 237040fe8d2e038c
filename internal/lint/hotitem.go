package lint

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// Thresholds of the hot-item check.
const (
	// hotItemCalls is how many calls of each write pattern the check makes
	// on the seeded data, each for another entity of the pool.
	hotItemCalls = 100
	// HotItemShare is the share of a write pattern's calls, each for
	// another entity, that must rewrite one item for the lint to name it:
	// a parent written by its few children stays below it, a counter or a
	// set every call updates is at 1.
	HotItemShare = 0.5
)

// sourceHotItem states that one partition serves at most 1,000 WCU/s and
// that adaptive capacity isolates a hot item on a partition of its own but
// never splits one item.
const sourceHotItem = guide + "burst-adaptive-capacity.html#isolate-frequent-access-items"

// rewrite is what calls of one write pattern did to one item.
type rewrite struct {
	pattern designs.PatternID
	key     string  // the item's key, as itemKey writes it
	calls   int     // the pattern's calls that succeeded
	wrote   int     // of those, the calls that changed the item
	wcu     float64 // the most write units a call put on the item's partition key value
}

// probeWrites calls each write pattern of d hotItemCalls times through
// driver on the seeded memory table m, each call for another entity of
// the pool, and returns the items each pattern rewrote on at least
// HotItemShare of its calls. A pattern the memory table cannot serve (one
// that reads with a Query first) or whose calls fail is not measured.
func probeWrites(ctx context.Context, d designs.Design, drv workload.Driver, changes *[]ddbitem.Change, pool int, rnd int64) []rewrite {
	var out []rewrite
	is := d.Schema.ItemSchema()
	for _, p := range d.Patterns {
		if !writes(p.Op) {
			continue
		}
		calls, wrote, wcu := 0, map[string]int{}, map[string]float64{}
		for i := range hotItemCalls {
			*changes = (*changes)[:0]
			if !call(ctx, drv, p.ID, i*pool/hotItemCalls, rand.New(rand.NewPCG(uint64(rnd), uint64(i)))) {
				continue
			}
			calls++
			o := capacity.Observation{At: time.Unix(0, 0), Pattern: p.ID, Op: p.Op, Table: "lint",
				Transactional: p.Op == designs.TransactWriteItems}
			pkOf := map[string]string{} // the items the call changed, each once: their partition key texts
			for _, c := range *changes {
				o.Writes = append(o.Writes, capacity.Write{Before: c.Before, After: c.After, Key: c.Write.Key})
				if img := image(c); img != nil {
					pkOf[itemKey(d.Schema, img)] = ddbitem.KeyText(img[d.Schema.PK])
				}
			}
			units := map[string]float64{}
			for _, ch := range capacity.Account(is, o) {
				if ch.Target == designs.MainTable {
					units[ch.Key] += ch.WCU
				}
			}
			for k, pk := range pkOf {
				wrote[k]++
				wcu[k] = max(wcu[k], units[pk])
			}
		}
		if calls < MinEntries {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(wrote)) {
			if float64(wrote[k]) >= HotItemShare*float64(calls) {
				out = append(out, rewrite{pattern: p.ID, key: k, calls: calls, wrote: wrote[k], wcu: wcu[k]})
			}
		}
	}
	return out
}

// image is the item a change left, or the one it deleted.
func image(c ddbitem.Change) ddbitem.Item {
	if c.After != nil {
		return c.After
	}
	return c.Before
}

// writes reports whether op writes.
func writes(op designs.Operation) bool {
	switch op {
	case designs.PutItem, designs.UpdateItem, designs.DeleteItem, designs.BatchWriteItem, designs.TransactWriteItems:
		return true
	}
	return false
}

// call makes one call, false when it failed or panicked (a pattern the
// memory table cannot serve).
func call(ctx context.Context, drv workload.Driver, p designs.PatternID, key int, r *rand.Rand) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return drv.Call(designs.WithPattern(ctx, p), p, key, r) == nil
}

// hotItems is the hot-item check: a write pattern that rewrites one item
// on most of its calls, whatever entity each is for. One item lives on one
// partition, so that pattern's rate is capped at a partition's write
// throughput divided by what each call writes to the item, however the
// table scales; splitting for heat cannot help.
func (l *linter) hotItems() {
	for _, r := range l.full.rewrites {
		w := max(r.wcu, 1)
		l.add(Finding{Target: Table, Pattern: r.pattern, Check: CheckHotItem, Pool: l.full.pool,
			Limit: Limit{Values: []Quantity{{ddbitem.PartitionWCU, "WCU/s per partition, which one item cannot pass"}}, Source: sourceHotItem},
			Keys:  []KeyFigure{{Key: r.key}},
			Measured: map[string]int{"calls": r.calls, "rewrites": r.wrote, "wcu_per_call": int(math.Ceil(w)),
				"calls_per_second_at_limit": int(ddbitem.PartitionWCU / w)},
		})
	}
}
