package capacity

import (
	"math"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Model is real DynamoDB for one run's table: its schema (keys, indexes,
// billing mode and provisioned throughput, which a provisioned table's GSIs
// share), what the run did (Requests calls of the whole mix over Duration),
// and the rate to forecast (TargetRate requests per second; 0: none).
// TableBytes, when known, counts the table's data at the end of the run,
// for the partitions AWS's rules give a provisioned table (Settings.Bytes
// is what the emulator's engine was given, which the replay takes).
type Model struct {
	Schema     designs.Schema
	Requests   int64
	Duration   time.Duration
	TargetRate float64
	// DeclaredPeak is the rate at peak the design's model declares (the
	// scenario's), which the report sets the first limit against; 0: none.
	DeclaredPeak float64
	TopN         int
	TableBytes   int64
	// Settings is how the run's limits emulator configured the engine
	// (bench/throughput) beyond the schema: the replay configures it the
	// same way (throughput.ConfigOf). Its Scale multiplies every limit.
	throughput.Settings
	// Denied, when set, is the calls that would have read from and
	// written to a target's partition key value but were denied
	// (throttled, or given up for a transaction conflict), and what each
	// would have consumed there. Their demand is added to what the served
	// calls consumed there, so that neither how much a run was throttled
	// nor how many conflicts it met (which grow as the test bed slows)
	// moves the forecast.
	Denied func(target, key string) Denial
	// DeniedAt, when set, is Denied for the calls that ended in one
	// second (Unix): the replay puts their demand in that second.
	DeniedAt func(target, key string, sec int64) Denial
	// DeniedKeys, when set, lists every value Denied counts: a value
	// whose calls were all denied has no row in the ledger, yet its
	// partition, and its table's or GSI's budget, were asked for them.
	DeniedKeys func() []DeniedRow
	// Placed, when set, is the partition of a table's or GSI's (space's)
	// partition key value, and the space's partition count, as the run's
	// limits emulator placed it; else Placement with PlacementSeed on
	// the partitions AWS's rules give.
	Placed func(space, key string) (part, partitions int)
	// TransactionHold is how long a transaction holds each item it writes
	// on real DynamoDB, for the conflict limit: 0 takes
	// rules.DefaultTransactionHold, a public measurement of the service.
	// PatternHold, when set, is a pattern's own, in place of it.
	TransactionHold time.Duration
	PatternHold     map[designs.PatternID]time.Duration
	// TestBedHold, when set, is the p50 latency of each pattern's calls
	// on the test bed: shown beside the hold as a measurement of the test
	// bed, never used for a limit, as it grows with the machine's load.
	TestBedHold map[designs.PatternID]time.Duration
	// PatternCalls, when set, is the calls the run made of each pattern,
	// served or not: a transaction cancelled for a conflict wrote nothing
	// the ledger saw, yet asked for its items as the others did.
	PatternCalls map[designs.PatternID]int64
	// PatternShare, when set, is each pattern's share of the mix's calls,
	// from the scenario's weights: the conflict limit counts a pattern's
	// transactions on an item per request as its share times the part of
	// its calls that asked for the item, so that which calls happened to
	// end in the measured window (slow ones fewer on a loaded machine)
	// does not move it.
	PatternShare map[designs.PatternID]float64
	// TxDenied, when set, counts the TransactWriteItems calls of each
	// pattern that would have written each item (by its key, "pk" or
	// "pk / sk") but were denied: the item's conflict limit counts them
	// with those the ledger saw, as they asked for it alike. Unset, the
	// ledger's are scaled to PatternCalls.
	TxDenied map[string]map[designs.PatternID]int64
	// ItemConflicts, when set, counts the item-level conflicts the run met
	// on each item, by its key ("pk" or "pk / sk").
	ItemConflicts map[string]int64
}

// Analyze runs the model over a run's ledger: hot keys per target, the
// rate at which the first limit is reached, the forecast at the target
// rate, growth, cost, DynamoDB Local's disagreements, and findings.
func (m Model) Analyze(l *ledger.Ledger) Report {
	l.Lock()
	defer l.Unlock()
	run := m.run(l)
	r := Report{
		Billing:      run.billing(),
		Seconds:      run.seconds,
		Requests:     run.requests,
		MeasuredRate: run.rate,
		TargetRate:   m.TargetRate,
		DeclaredPeak: m.DeclaredPeak,
		Rules:        rules.All(),
		Scale:        run.scale(),
	}
	r.PartitionLimit = run.partitionLimitText()
	if l.First() <= l.Last() {
		r.Start = time.Unix(l.First(), 0).UTC()
	}
	r.Targets = run.targets()
	r.Hot = run.hot()
	part, budget, all := run.firstCeilings()
	r.Ceiling = run.ceiling(part, budget)
	if r.LimitsInOrder = run.limits(part, budget, all); len(r.LimitsInOrder) > 0 {
		r.FirstLimit = &r.LimitsInOrder[0]
	}
	r.Warm = run.warm(r.Ceiling)
	if m.TargetRate > 0 {
		r.Forecast = run.forecast(m.TargetRate)
	}
	r.Replay = run.replay(1)
	r.PutBack = run.putBack()
	r.Growth = run.growth()
	r.Cost = run.cost()
	r.Patterns, r.Disagreements = run.patterns()
	run.cite(&r)
	return r
}

// run is one Analyze: the model, the ledger and the run's figures.
type run struct {
	Model
	l        *ledger.Ledger
	denied   []DeniedRow // DeniedKeys, listed once
	seconds  float64
	requests int64
	rate     float64
	loads    map[string]*spaceLoad // by space, made by placed
}

// group is one partition key value of one partition space: the table's
// (with its LSIs, which live in the table's partitions) or a GSI's.
type group struct {
	ledger.Slot
	ledger.Usage
	calls                 int64
	readCalls, writeCalls int64
	pattern               designs.PatternID
	weights               map[designs.PatternID]float64
}

// run gathers the run's figures.
func (m Model) run(l *ledger.Ledger) *run {
	r := &run{Model: m, l: l, seconds: m.Duration.Seconds(), requests: m.Requests}
	if r.seconds <= 0 && l.First() <= l.Last() {
		r.seconds = float64(l.Last() - l.First() + 1)
	}
	if r.requests <= 0 {
		r.requests = l.Observed()
	}
	if r.seconds > 0 {
		r.rate = float64(r.requests) / r.seconds
	}
	if m.DeniedKeys != nil {
		r.denied = m.DeniedKeys()
	}
	return r
}

// eachGroup calls f with every partition group of the run. The groups are
// made as they are visited, not kept: a run that creates keys at every
// call has as many groups as keys.
func (r *run) eachGroup(f func(g *group)) {
	r.l.EachKey(func(s ledger.Slot, _ *ledger.KeyStats) {
		space := r.space(s.Target)
		for _, t := range r.targetsOf(space) {
			if t == s.Target {
				f(r.group(ledger.Slot{Target: space, Key: s.Key}))
				return
			}
			if r.l.Key(ledger.Slot{Target: t, Key: s.Key}) != nil {
				return // made when eachKey visits t's row
			}
		}
	})
	// The values whose every call was denied: their demand is all put back.
	seen := map[ledger.Slot]bool{}
	for _, d := range r.denied {
		gs := ledger.Slot{Target: d.Target, Key: d.Key}
		if seen[gs] || r.inLedger(gs) {
			continue
		}
		seen[gs] = true
		f(r.group(gs))
	}
}

// inLedger reports whether the ledger has a row of partition group gs.
func (r *run) inLedger(gs ledger.Slot) bool {
	for _, t := range r.targetsOf(gs.Target) {
		if r.l.Key(ledger.Slot{Target: t, Key: gs.Key}) != nil {
			return true
		}
	}
	return false
}

// targetsOf lists the targets whose traffic lands in space: the table's
// and its LSIs', or a GSI's own.
func (r *run) targetsOf(space string) []string {
	if space != designs.MainTable {
		return []string{space}
	}
	ts := []string{designs.MainTable}
	for _, ix := range r.l.Schema().Indexes {
		if ix.Local {
			ts = append(ts, ix.Name)
		}
	}
	return ts
}

// group sums the rows of the partition group gs (a value of a partition
// space) over its targets, with the demand throttled away from it.
func (r *run) group(gs ledger.Slot) *group {
	g := &group{Slot: gs, weights: map[designs.PatternID]float64{}}
	for _, t := range r.targetsOf(gs.Target) {
		k := r.l.Key(ledger.Slot{Target: t, Key: gs.Key})
		if k == nil {
			continue
		}
		g.RCU, g.WCU = g.RCU+k.RCU, g.WCU+k.WCU
		g.calls = max(g.calls, k.Calls)
		g.readCalls, g.writeCalls = max(g.readCalls, k.ReadCalls), max(g.writeCalls, k.WriteCalls)
		for _, w := range k.ByPattern {
			g.weights[w.Pattern] += w.Weight
		}
	}
	g.pattern = heaviest(g.weights)
	r.addDenied(g)
	return g
}

// addDenied adds to g the demand of the calls denied there
// (throttled, or given up for a conflict): each at its own size, one of
// unknown size as much as a served call of its side consumed there.
func (r *run) addDenied(g *group) {
	if r.Denied == nil {
		return
	}
	d := r.Denied(g.Target, g.Key)
	g.Usage.Add(d.units(g.perCall()))
	g.readCalls += d.Reads
	g.writeCalls += d.Writes
	g.calls = max(g.calls, g.readCalls, g.writeCalls)
}

// perCall is what a served call of each side consumed on g.
func (g *group) perCall() ledger.Usage {
	var per ledger.Usage
	if g.readCalls > 0 {
		per.RCU = g.RCU / float64(g.readCalls)
	}
	if g.writeCalls > 0 {
		per.WCU = g.WCU / float64(g.writeCalls)
	}
	return per
}

// scale is the factor on every limit.
func (r *run) scale() float64 { return throughput.Scale(r.Scale) }

// space is the partition space a target's traffic lands in: an LSI's is
// its table's.
func (r *run) space(target string) string {
	if ix, ok := r.l.Schema().Index(target); ok && ix.Local {
		return designs.MainTable
	}
	return target
}

// heaviest is the pattern with the most weight, the smallest ID on a tie.
func heaviest(w map[designs.PatternID]float64) designs.PatternID {
	var best designs.PatternID
	for p, v := range w {
		if best == "" || v > w[best] || (v == w[best] && p < best) {
			best = p
		}
	}
	return best
}

// provisioned reports whether the table uses provisioned throughput.
func (r *run) provisioned() bool { return r.Schema.Billing == types.BillingModeProvisioned }

func (r *run) billing() string {
	if r.provisioned() {
		return "provisioned"
	}
	return "on-demand"
}

// perRequest is a slot's units per request of the mix.
func (r *run) perRequest(u ledger.Usage) ledger.Usage {
	if r.requests == 0 {
		return ledger.Usage{}
	}
	n := float64(r.requests)
	return ledger.Usage{RCU: u.RCU / n, WCU: u.WCU / n}
}

// partitionUse is the share of one partition's throughput that u units per
// second take: reads and writes are throttled independently, so the side
// nearer its limit (3,000 RCU, 1,000 WCU) decides.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/throttling-key-range-limit-exceeded-mitigation.html
func (r *run) partitionUse(u ledger.Usage) float64 {
	lim := r.partitionLimit()
	return max(u.RCU/lim.RCU, u.WCU/lim.WCU)
}

// partitionLimit is what one partition serves per second, scaled.
func (r *run) partitionLimit() ledger.Usage {
	return ledger.Usage{RCU: ddbitem.PartitionRCU * r.scale(), WCU: ddbitem.PartitionWCU * r.scale()}
}

// keyThrottleRate is the request rate of the mix at which group g's
// partition reaches its limit; 0 when the group takes nothing.
func (r *run) keyThrottleRate(g *group) float64 {
	use := r.partitionUse(r.perRequest(g.Usage))
	if use == 0 {
		return 0
	}
	return 1 / use
}

// tableLimit is the throughput a whole target may consume per second: its
// provisioned throughput, or the on-demand table quota, or the maximum
// throughput declared below it.
func (r *run) tableLimit() ledger.Usage {
	k := r.scale()
	if r.provisioned() {
		return ledger.Usage{RCU: float64(r.Schema.RCU) * k, WCU: float64(r.Schema.WCU) * k}
	}
	lim := ledger.Usage{RCU: ddbitem.OnDemandTableRRU, WCU: ddbitem.OnDemandTableWRU}
	if r.MaxReads > 0 {
		lim.RCU = min(lim.RCU, r.MaxReads)
	}
	if r.MaxWrites > 0 {
		lim.WCU = min(lim.WCU, r.MaxWrites)
	}
	return ledger.Usage{RCU: lim.RCU * k, WCU: lim.WCU * k}
}

// spaces lists the partition spaces with traffic: the table first, then
// GSIs by name.
func (r *run) spaces() []string {
	seen := map[string]bool{}
	r.l.EachKey(func(s ledger.Slot, _ *ledger.KeyStats) { seen[r.space(s.Target)] = true })
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.SortFunc(out, ledger.ByTarget)
	return out
}

// spaceUnits sums a partition space's units, with those of the calls
// denied there (each at its own size; one of unknown size as much as a
// served call of its side there), and the calls that read from or wrote
// to it (served: a call denied on several values of the space is counted
// once per value, so none are added).
func (r *run) spaceUnits(space string) (u ledger.Usage, readCalls, writeCalls int64) {
	for name, t := range r.l.Targets() {
		if r.space(name) == space {
			u.RCU, u.WCU = u.RCU+t.RCU, u.WCU+t.WCU
			readCalls, writeCalls = max(readCalls, t.ReadCalls), max(writeCalls, t.WriteCalls)
		}
	}
	per := ledger.Usage{}
	if readCalls > 0 {
		per.RCU = u.RCU / float64(readCalls)
	}
	if writeCalls > 0 {
		per.WCU = u.WCU / float64(writeCalls)
	}
	var denied ledger.Usage
	for _, d := range r.denied {
		if d.Target == space {
			denied.Add(d.units(per))
		}
	}
	u.Add(denied)
	return u, readCalls, writeCalls
}

// tableThrottleRate is the request rate at which a whole space reaches its
// table-level limit, and which of read or write binds.
func (r *run) tableThrottleRate(space string) (rate float64, write bool) {
	u, _, _ := r.spaceUnits(space)
	per, lim := r.perRequest(u), r.tableLimit()
	rate = math.Inf(1)
	if per.RCU > 0 {
		rate = lim.RCU / per.RCU
	}
	if per.WCU > 0 && lim.WCU/per.WCU < rate {
		rate, write = lim.WCU/per.WCU, true
	}
	return rate, write
}
