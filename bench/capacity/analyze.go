package capacity

import (
	"cmp"
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// targets sums the run per target, table first.
func (r *run) targets() []TargetUsage {
	peaks := map[string]map[int64]ledger.Usage{}
	keys := map[string]int{}
	r.l.EachKey(func(s ledger.Slot, k *ledger.KeyStats) {
		keys[s.Target]++
		if peaks[s.Target] == nil {
			peaks[s.Target] = map[int64]ledger.Usage{}
		}
		for _, c := range k.Seconds {
			p := peaks[s.Target][c.Sec]
			peaks[s.Target][c.Sec] = ledger.Usage{RCU: p.RCU + c.RCU, WCU: p.WCU + c.WCU}
		}
	})
	var out []TargetUsage
	for name, t := range r.l.Targets() {
		tu := TargetUsage{Target: name, Kind: r.kind(name), RCU: t.RCU, WCU: t.WCU, Keys: keys[name]}
		for _, u := range peaks[name] {
			tu.PeakRCU, tu.PeakWCU = max(tu.PeakRCU, u.RCU), max(tu.PeakWCU, u.WCU)
		}
		if r.provisioned() && r.space(name) == name {
			tu.ProvisionedRCU, tu.ProvisionedWCU = r.Schema.RCU, r.Schema.WCU
			bytes := int64(0)
			if name == designs.MainTable {
				bytes = r.TableBytes
			}
			tu.Partitions = throughput.Partitions(r.Schema.RCU, r.Schema.WCU, bytes)
		}
		out = append(out, tu)
	}
	slices.SortFunc(out, func(a, b TargetUsage) int { return ledger.ByTarget(a.Target, b.Target) })
	return out
}

// kind tells the table, a GSI and an LSI apart.
func (r *run) kind(target string) string {
	ix, ok := r.l.Schema().Index(target)
	switch {
	case !ok:
		return kindTable
	case ix.Local:
		return kindLSI
	}
	return kindGSI
}

// hot lists the TopN keys of each target by Contributor Insights' weight.
func (r *run) hot() []HotKey {
	n := r.TopN
	if n <= 0 {
		n = rules.DefaultTopN
	}
	// Each target keeps its n heaviest keys as they come: a run may have
	// touched millions.
	perTarget := map[string][]HotKey{}
	totals := map[string]float64{}
	heavier := func(a, b HotKey) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Key, b.Key)) }
	r.l.EachKey(func(s ledger.Slot, k *ledger.KeyStats) {
		w := ledger.Weight(k.RCU, k.WCU)
		totals[s.Target] += w
		h := HotKey{Target: s.Target, Key: s.Key, Score: w, RCU: k.RCU, WCU: k.WCU}
		top := perTarget[s.Target]
		if i, _ := slices.BinarySearchFunc(top, h, heavier); i < n {
			h.Pattern = heaviest(k.Weights())
			h.OneItem = k.Single() || r.noSortKey(s.Target)
			perTarget[s.Target] = slices.Insert(top, i, h)[:min(n, len(top)+1)]
		}
	})
	var out []HotKey
	names := make([]string, 0, len(perTarget))
	for t := range perTarget {
		names = append(names, t)
	}
	slices.SortFunc(names, ledger.ByTarget)
	for _, t := range names {
		for _, h := range perTarget[t] {
			if totals[t] > 0 {
				h.Share = h.Score / totals[t]
			}
			h.ThrottleRate = r.placedRate(r.space(h.Target), h.Key)
			h.Series, h.PeakRCU, h.PeakWCU = r.series(ledger.Slot{Target: h.Target, Key: h.Key})
			out = append(out, h)
		}
	}
	return out
}

// series is a slot's traffic per second over the run, and its peaks.
func (r *run) series(s ledger.Slot) (pts []Point, peakRCU, peakWCU float64) {
	k := r.l.Key(s)
	if k == nil {
		return nil, 0, 0
	}
	for _, u := range k.Seconds {
		pts = append(pts, Point{T: int(u.Sec - r.l.First()), RCU: u.RCU, WCU: u.WCU})
		peakRCU, peakWCU = max(peakRCU, u.RCU), max(peakWCU, u.WCU)
	}
	return pts, peakRCU, peakWCU
}

// firstCeilings is the partition, its keys as the run placed them, and
// the table or GSI that reach their limit at the lowest rate (nil for
// none): the first limit of each of those kinds, which ceiling and
// limits both start from; all is every one the mix reaches, for the
// limits tied with the first. Each names its side and reason.
func (r *run) firstCeilings() (part, budget *Ceiling, all []Ceiling) {
	consider := func(c Ceiling, first **Ceiling) {
		r.withReason(&c)
		*first = lower(*first, c)
		if c.Rate > 0 && !math.IsInf(c.Rate, 1) {
			all = append(all, c)
		}
	}
	r.partitionCeilings(func(c Ceiling) { consider(c, &part) })
	for _, space := range r.spaces() {
		rate, write := r.tableThrottleRate(space)
		consider(Ceiling{Target: space, Limit: r.tableLimitText(write), Rate: rate,
			BackPressure: write && space != designs.MainTable, Side: sideName(write)}, &budget)
	}
	return part, budget, all
}

// lower is a copy of c when the mix reaches it before best (on a tie, the
// first by target and key), else best; a rate never reached is passed over.
func lower(best *Ceiling, c Ceiling) *Ceiling {
	if c.Rate <= 0 || math.IsInf(c.Rate, 1) {
		return best
	}
	if best == nil || c.Rate < best.Rate || (c.Rate == best.Rate && c.Target+c.Key < best.Target+best.Key) {
		return &c
	}
	return best
}

// ceiling is the first limit the mix reaches as its rate grows: the lower
// of the first partition and the first table or GSI (firstCeilings).
func (r *run) ceiling(part, budget *Ceiling) *Ceiling {
	var best *Ceiling
	for _, c := range []*Ceiling{part, budget} {
		if c != nil {
			best = lower(best, *c)
		}
	}
	if best != nil && r.rate > 0 {
		best.Factor = best.Rate / r.rate
	}
	if best != nil && best.Key != "" {
		best.Splittable = r.splittable(best.Target)
	}
	return best
}

// noSortKey reports whether target keys its items by partition key alone,
// each key one item.
func (r *run) noSortKey(target string) bool {
	if ix, ok := r.l.Schema().Index(target); ok {
		return ix.SK == ""
	}
	return r.l.Schema().SK == ""
}

// splittable reports whether adaptive capacity may spread the items of a
// partition key of target over partitions: the target needs a sort key,
// and a table with LSIs keeps each item collection on one partition.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html#isolate-frequent-access-items
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.OnePartition
func (r *run) splittable(target string) bool {
	if ix, ok := r.l.Schema().Index(target); ok && !ix.Local {
		return ix.SK != ""
	}
	return r.Schema.SK != "" && len(r.Schema.LSIs) == 0
}

// forecast predicts throttling at rate requests per second: every
// partition key and every table or GSI whose demand exceeds its limit
// refuses the excess share of its units, and the requests that touch it
// are throttled in that proportion (an estimate that counts a request
// touching two refused places twice, capped at all requests).
func (r *run) forecast(rate float64) *Forecast {
	f := &Forecast{Rate: rate}
	if r.requests == 0 {
		return f
	}
	if r.rate > 0 {
		f.Replay = r.replay(rate / r.rate)
	}
	throttled := 0.0
	callShare := func(calls int64) float64 { return rate * float64(calls) / float64(r.requests) }
	r.eachGroup(func(g *group) {
		per := r.perRequest(g.Usage)
		use := rate * r.partitionUse(per)
		plim := r.partitionLimit()
		if use <= 1 {
			return
		}
		// Each side is throttled on its own: the calls that read are refused
		// in the reads' proportion, the calls that write in the writes'.
		for _, side := range []struct {
			use   float64
			calls int64
		}{{rate * per.RCU / plim.RCU, g.readCalls}, {rate * per.WCU / plim.WCU, g.writeCalls}} {
			if side.use > 1 {
				throttled += callShare(side.calls) * (1 - 1/side.use)
			}
		}
		f.Over = append(f.Over, Pressure{Target: g.Target, Key: g.Key, Limit: r.partitionLimitText(),
			RCU: rate * per.RCU, WCU: rate * per.WCU, Utilization: use, Refused: 1 - 1/use,
			BackPressure: g.Target != designs.MainTable && rate*per.WCU > plim.WCU})
	})
	lim := r.tableLimit()
	for _, space := range r.spaces() {
		u, readCalls, writeCalls := r.spaceUnits(space)
		per := r.perRequest(u)
		for _, side := range []struct {
			demand, limit float64
			calls         int64
			write         bool
		}{{rate * per.RCU, lim.RCU, readCalls, false}, {rate * per.WCU, lim.WCU, writeCalls, true}} {
			if side.limit <= 0 || side.demand <= side.limit {
				continue
			}
			use := side.demand / side.limit
			refused := 1 - 1/use
			throttled += callShare(side.calls) * refused
			p := Pressure{Target: space, Limit: r.tableLimitText(side.write), Utilization: use, Refused: refused,
				BackPressure: side.write && space != designs.MainTable}
			if side.write {
				p.WCU = side.demand
			} else {
				p.RCU = side.demand
			}
			f.Over = append(f.Over, p)
			if r.provisioned() {
				r.burst(f, side.limit, side.demand, side.demand*r.rate/rate)
			}
		}
	}
	f.ThrottledFraction = min(1, throttled/rate)
	slices.SortFunc(f.Over, func(a, b Pressure) int {
		return cmp.Or(cmp.Compare(b.Utilization, a.Utilization), ledger.ByTarget(a.Target, b.Target), cmp.Compare(a.Key, b.Key))
	})
	return f
}

// burst sets how long burst capacity holds off a table or GSI whose demand
// passes its provisioned limit: from a full bank, and from the bank the
// measured demand would have left. The shortest over the places wins.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
// (up to 300 s of unused capacity kept), and the worked example in
// https://repost.aws/knowledge-center/dynamodb-spiky-workloads-short-intervals
// (150 RCU for 300 s banks 45,000 units, which last 900 s at 200 RCU/s; best
// effort, not guaranteed).
func (r *run) burst(f *Forecast, limit, demand, measured float64) {
	full := ddbitem.BurstSeconds * limit / (demand - limit)
	after := ddbitem.BurstSeconds * max(0, limit-measured) / (demand - limit)
	if f.BurstBank == 0 {
		f.BurstBank, f.BurstSeconds, f.BurstAfterRunSeconds = ddbitem.BurstSeconds, full, after
		return
	}
	f.BurstSeconds, f.BurstAfterRunSeconds = min(f.BurstSeconds, full), min(f.BurstAfterRunSeconds, after)
}
