package emulate

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// DeniedAll lists every partition key value Denied counts, by target,
// then key.
func (e *Emulator) DeniedAll() []capacity.DeniedRow {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]capacity.DeniedRow, 0, len(e.m.denied))
	for s, d := range e.m.denied {
		out = append(out, capacity.DeniedRow{Target: s.target, Key: s.key, Denial: d})
	}
	slices.SortFunc(out, func(a, b capacity.DeniedRow) int {
		return cmp.Or(cmp.Compare(a.Target, b.Target), cmp.Compare(a.Key, b.Key))
	})
	return out
}

// MergeDenied sums the rows of several shards' DeniedAll into one list,
// as DeniedAll lists them: each shard's calls are its own, so the calls
// that were denied, and their units, add up. A row written before denied
// calls were priced (calls without units) counts its calls as unsized.
func MergeDenied(rows ...[]capacity.DeniedRow) []capacity.DeniedRow {
	sum := map[slot]capacity.Denial{}
	for _, shard := range rows {
		for _, r := range shard {
			d := r.Denial
			if d.RCU == 0 && d.UnsizedReads == 0 {
				d.UnsizedReads = d.Reads
			}
			if d.WCU == 0 && d.UnsizedWrites == 0 {
				d.UnsizedWrites = d.Writes
			}
			s := slot{r.Target, r.Key}
			sum[s] = sum[s].Plus(d)
		}
	}
	out := make([]capacity.DeniedRow, 0, len(sum))
	for s, d := range sum {
		out = append(out, capacity.DeniedRow{Target: s.target, Key: s.key, Denial: d})
	}
	slices.SortFunc(out, func(a, b capacity.DeniedRow) int {
		return cmp.Or(cmp.Compare(a.Target, b.Target), cmp.Compare(a.Key, b.Key))
	})
	return out
}

// DeniedLookup is Emulator.Denied over rows (DeniedAll's, or
// MergeDenied's).
func DeniedLookup(rows []capacity.DeniedRow) func(target, key string) capacity.Denial {
	sum := make(map[slot]capacity.Denial, len(rows))
	for _, r := range rows {
		sum[slot{r.Target, r.Key}] = r.Denial
	}
	return func(target, key string) capacity.Denial { return sum[slot{target, key}] }
}

// MergeThrottling sums what the emulators of several shards of one run
// measured (Measured) into what one emulator that saw every call would
// have: each shard made its own share of the calls against its own share
// of every limit (its Scale), on one clock. One Throttling comes back as
// it is.
//
// Counts (calls, attempts, retries, refusals, throttled calls, conflicts,
// totals)
// are summed per pattern, per partition, per value and second and per
// item (of the items each shard lists: each shard's own calls conflict
// only with each other); so are Rate (each
// shard's is its share of the mix) and Scale (each shard's limits are its
// share of them). Billing is the first's. Isolations is the largest of the
// shards': each sees its share of every value's traffic against its share
// of the limits, so they isolate the same hot values.
//
// Rows of one budget side (target, budget and side) merge as a
// partition's Refused, First and ThrottledSeconds do (a file written
// before budgets had rows has none). Rows of one partition side (target,
// number and side: the shards place values by one hash over one
// partition count) merge field by field:
//   - Refused, Calls, Throttled and HeldUnits are summed: in a second
//     the shards all refused in, the partition held what each shard's
//     share of it held.
//   - Isolated is set when any shard isolated a value there.
//   - Keys are the shards' busiest values by rank (every shard's first,
//     then every shard's second...), as many as Measured lists: the
//     shards report no units per value, and each sees a share of one mix.
//   - Limit is the partition's at the merged Scale.
//   - First and FirstSecond are the earliest refusal's.
//   - ThrottledSeconds is the largest: on one clock and one mix, a
//     partition refuses in the same seconds on every shard, and the
//     largest is a lower bound of their union.
//   - DemandPerRequest is the mean of the shards', weighted by their Rate
//     (the requests each made over the common span), and Share the mean
//     weighted by their Calls (the calls that reached the partition);
//     ForecastRate, MeasuredRate and ForecastShare follow from them as
//     Measured derives them.
func MergeThrottling(ts ...Throttling) Throttling {
	var out Throttling
	if len(ts) == 0 {
		return out
	}
	out.Billing = ts[0].Billing
	patterns := map[designs.PatternID]*PatternThrottles{}
	keys := map[cell]int64{}
	items := map[string]int64{}
	for _, t := range ts {
		out.Scale += t.Scale
		out.Rate += t.Rate
		out.Isolations = max(out.Isolations, t.Isolations)
		out.ConflictsOff = out.ConflictsOff || t.ConflictsOff
		out.ClientRetries = out.ClientRetries || t.ClientRetries
		for _, it := range t.ConflictItems {
			items[it.Item] += it.Conflicts
		}
		for _, p := range t.Patterns {
			q := patterns[p.Pattern]
			if q == nil {
				q = &PatternThrottles{Pattern: p.Pattern}
				patterns[p.Pattern] = q
			}
			q.add(p)
		}
		for _, k := range t.Keys {
			keys[cell{slot{k.Target, k.Key}, k.Second.Unix()}] += k.Refused
		}
	}
	for it, n := range items {
		out.ConflictItems = append(out.ConflictItems, ItemConflicts{it, n})
	}
	out.ConflictItems = topConflicts(out.ConflictItems)
	for _, id := range slices.Sorted(maps.Keys(patterns)) {
		out.Patterns = append(out.Patterns, *patterns[id])
	}
	out.total()
	// One emulator has one row per value and second.
	for c, n := range keys {
		out.Keys = append(out.Keys, KeySecond{Target: c.target, Key: c.key, Second: time.Unix(c.sec, 0).UTC(), Refused: n})
	}
	slices.SortFunc(out.Keys, func(a, b KeySecond) int {
		return cmp.Or(a.Second.Compare(b.Second), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Key, b.Key))
	})
	out.Partitions = mergePartitions(ts, out.Scale, out.Rate)
	out.Budgets = mergeBudgets(ts)
	return out
}

// mergeBudgets merges the shards' rows of each budget side (see
// MergeThrottling).
func mergeBudgets(ts []Throttling) []BudgetThrottles {
	type budgetSide struct{ target, budget, side string }
	merged := map[budgetSide]*BudgetThrottles{}
	for _, t := range ts {
		for _, b := range t.Budgets {
			id := budgetSide{b.Target, b.Budget, b.Side}
			m := merged[id]
			if m == nil {
				merged[id] = &b
				continue
			}
			if b.First.Before(m.First) {
				m.First, m.FirstSecond = b.First, b.FirstSecond
			}
			m.ThrottledSeconds = max(m.ThrottledSeconds, b.ThrottledSeconds)
			m.Refused += b.Refused
		}
	}
	var out []BudgetThrottles
	for _, b := range merged {
		out = append(out, *b)
	}
	slices.SortFunc(out, byFirstRefusal)
	return out
}

// shardRow is one shard's row of a partition side, with that shard's
// Scale and Rate.
type shardRow struct {
	PartitionThrottles
	scale, rate float64
}

// mergePartitions merges the shards' rows of each partition side (see
// MergeThrottling); scale and rate are the merged Throttling's.
func mergePartitions(ts []Throttling, scale, rate float64) []PartitionThrottles {
	type partSide struct {
		target    string
		partition int
		side      string
	}
	bySide := map[partSide][]shardRow{}
	var order []partSide
	for _, t := range ts {
		for _, p := range t.Partitions {
			id := partSide{p.Target, p.Partition, p.Side}
			if bySide[id] == nil {
				order = append(order, id)
			}
			bySide[id] = append(bySide[id], shardRow{p, t.Scale, t.Rate})
		}
	}
	var out []PartitionThrottles
	for _, id := range order {
		out = append(out, mergeRows(bySide[id], scale, rate))
	}
	slices.SortFunc(out, func(a, b PartitionThrottles) int {
		return cmp.Or(a.First.Compare(b.First), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Side, b.Side))
	})
	return out
}

// mergeRows is a partition side's row over the shards' (see
// MergeThrottling).
func mergeRows(rows []shardRow, scale, rate float64) PartitionThrottles {
	first := rows[0]
	if len(rows) == 1 && first.scale == scale && first.rate == rate {
		return first.PartitionThrottles // one shard's row, as it measured it
	}
	pt := PartitionThrottles{Target: first.Target, Partition: first.Partition, Side: first.Side, Reason: first.Reason, Limit: first.Limit,
		First: first.First, FirstSecond: first.FirstSecond}
	if first.scale > 0 && scale > 0 {
		pt.Limit = first.Limit * (scale / first.scale)
	}
	var ranked [][]string
	var demand, rates, share, calls float64
	for _, p := range rows {
		ranked = append(ranked, p.Keys)
		pt.Isolated = pt.Isolated || p.Isolated
		if p.First.Before(pt.First) {
			pt.First, pt.FirstSecond = p.First, p.FirstSecond
		}
		pt.ThrottledSeconds = max(pt.ThrottledSeconds, p.ThrottledSeconds)
		pt.Refused += p.Refused
		pt.Calls += p.Calls
		pt.Throttled += p.Throttled
		pt.HeldUnits += p.HeldUnits
		demand, rates = demand+p.DemandPerRequest*p.rate, rates+p.rate
		share, calls = share+p.Share*float64(p.Calls), calls+float64(p.Calls)
	}
	pt.Keys = byRank(ranked)
	switch {
	case rates > 0:
		pt.DemandPerRequest = demand / rates
	default: // no shard knew its rate: each counts alike
		for _, p := range rows {
			pt.DemandPerRequest += p.DemandPerRequest / float64(len(rows))
		}
	}
	if calls > 0 {
		pt.Share = share / calls
	}
	if pt.DemandPerRequest > 0 {
		pt.ForecastRate = pt.Limit / pt.DemandPerRequest
		pt.MeasuredRate = pt.HeldUnits / pt.DemandPerRequest
		if rate > pt.ForecastRate {
			pt.ForecastShare = 1 - pt.ForecastRate/rate
		}
	}
	return pt
}

// partitionKeys is how many of a partition's busiest values Measured
// lists.
const partitionKeys = 3

// byRank interleaves ranked lists: every list's first, then every list's
// second..., each value once, at most partitionKeys.
func byRank(lists [][]string) []string {
	longest := 0
	for _, l := range lists {
		longest = max(longest, len(l))
	}
	out := make([]string, 0, partitionKeys)
	for rank := range longest {
		for _, l := range lists {
			if rank < len(l) && len(out) < partitionKeys && !slices.Contains(out, l[rank]) {
				out = append(out, l[rank])
			}
		}
	}
	return out
}
