package emulate

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/spill"
)

// measure is what the emulator saw: per partition, per partition key value
// and second, and per pattern. Guarded by Emulator.mu.
type measure struct {
	start    int64
	parts    map[partID]*partStats
	cells    map[cell]int64 // refused attempts per value and second
	patterns map[designs.PatternID]*PatternThrottles
	denied   map[slot]capacity.Denial     // calls that were denied (Denied), per value
	deniedAt map[cell]capacity.Denial     // the same, per value and second they ended in
	keys     *spill.Map[partKey, float64] // units per partition and value, both sides against their limits
	items    map[string]int64             // item-level conflicts per item (conflict.go's itemID)
	txDenied map[itemPattern]int64        // denied TransactWriteItems calls per item they write and pattern
	budgets  map[budgetID]*budgetStats    // refusals by a table's or GSI's own budget
	backoff  map[int64]int64              // nanoseconds calls waited in the SDK's backoff, per Unix second
}

// budgetID is one budget of a space (by name): its kind, as
// BudgetThrottles.Budget names it.
type budgetID struct{ space, kind string }

// budgetStats is a budget's refusals per side: how many, the first (Unix
// nanoseconds; 0: none), and how many in each second.
type budgetStats struct {
	refused [2]int64
	first   [2]int64
	seconds map[int64][2]int64
	reason  [2]string // what its refusals answered, per side
}

// partKey is a partition key value (by its id in names) of one partition
// (by partStats.n).
type partKey struct{ part, key uint32 }

type partID struct {
	space string
	i     int
}

type slot struct{ target, key string }

type cell struct {
	slot
	sec int64
}

// partStats is one partition's run.
type partStats struct {
	space     *space
	n         uint32 // the partition's number, in order of first use
	units     [2]float64
	calls     [2]int64 // charges that consumed on the side
	throttled [2]int64 // calls that ended throttled here
	dropped   [2]int64 // calls given up for a transaction conflict here
	// deniedUnits is what the throttled and dropped calls would have
	// consumed here, each priced from its own request; unsized counts
	// those whose size was unknown (Denial).
	deniedUnits [2]float64
	unsized     [2]int64
	refused     [2]int64 // attempts refused here
	first       [2]int64 // first refusal, Unix nanoseconds; 0: none
	seconds     map[int64]*secondStats
	isolated    bool
}

type secondStats struct {
	units     [2]float64
	refused   [2]int64
	calls     [2]int64 // charges that consumed on the side
	throttled [2]int64 // calls that ended throttled here
}

func newMeasure() measure {
	return measure{parts: map[partID]*partStats{}, cells: map[cell]int64{},
		patterns: map[designs.PatternID]*PatternThrottles{}, denied: map[slot]capacity.Denial{}, deniedAt: map[cell]capacity.Denial{}, keys: spill.New[partKey, float64](keyRows),
		items: map[string]int64{}, txDenied: map[itemPattern]int64{}, budgets: map[budgetID]*budgetStats{}, backoff: map[int64]int64{}}
}

func (m *measure) part(s *space, i int) *partStats {
	id := partID{s.name, i}
	p := m.parts[id]
	if p == nil {
		p = &partStats{space: s, n: uint32(len(m.parts)), seconds: map[int64]*secondStats{}}
		m.parts[id] = p
	}
	return p
}

func (p *partStats) second(sec int64) *secondStats {
	s := p.seconds[sec]
	if s == nil {
		s = &secondStats{}
		p.seconds[sec] = s
	}
	return s
}

func (m *measure) pattern(id designs.PatternID) *PatternThrottles {
	p := m.patterns[id]
	if p == nil {
		p = &PatternThrottles{Pattern: id}
		m.patterns[id] = p
	}
	return p
}

func (m *measure) begin(now int64) {
	if m.start == 0 {
		m.start = now
	}
}

// consumed counts a charge of u units on partition i of s.
func (m *measure) consumed(s *space, i int, key uint32, now int64, u [2]float64) {
	m.begin(now)
	p := m.part(s, i)
	sec := p.second(second(now))
	for side := range 2 {
		if u[side] > 0 {
			p.units[side] += u[side]
			p.calls[side]++
			sec.units[side] += u[side]
			sec.calls[side]++
		}
	}
	limit := s.Limit()
	share := max(u[read]/limit[read], u[write]/limit[write])
	m.keys.Update(partKey{p.n, key}, func(was float64, _ bool) float64 { return was + share })
}

// refused counts an attempt r refused.
func (m *measure) refused(r *refusal, pattern designs.PatternID, now int64) {
	m.begin(now)
	m.pattern(pattern).Refused++
	m.cells[cell{slot{r.space.name, r.key}, second(now)}]++
	if r.part < 0 {
		m.budgetRefused(r, now)
		return
	}
	p := m.part(r.space, r.part)
	p.refused[r.side]++
	p.second(second(now)).refused[r.side]++
	if p.first[r.side] == 0 {
		p.first[r.side] = now
	}
}

// Budgets a table or GSI refuses by, before any partition is asked
// (BudgetThrottles.Budget): a provisioned one's throughput, an
// on-demand one's warm throughput (which DynamoDB raises as usage grows),
// the maximum throughput it was given, or the account's table quota once
// that allowance has reached it.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html
const (
	BudgetProvisioned = "provisioned"
	BudgetWarm        = "warm throughput"
	BudgetMax         = "maximum throughput"
	BudgetQuota       = "table quota"
)

// budgetRefused counts an attempt r's budget refused, under the budget's
// kind budgetRefusal named.
func (m *measure) budgetRefused(r *refusal, now int64) {
	id := budgetID{r.space.name, r.budget}
	b := m.budgets[id]
	if b == nil {
		b = &budgetStats{seconds: map[int64][2]int64{}}
		m.budgets[id] = b
	}
	b.refused[r.side]++
	b.reason[r.side] = r.reason
	if b.first[r.side] == 0 {
		b.first[r.side] = now
	}
	sec := b.seconds[second(now)]
	sec[r.side]++
	b.seconds[second(now)] = sec
}

// maxConflictItems bounds the items whose conflicts are counted apart;
// conflicts gather on few hot items, and the rest count in the totals.
const maxConflictItems = 10000

// conflicted counts an attempt refused for a transaction conflict: one
// item-level conflict per item in conflict, as CloudWatch's
// TransactionConflict metric counts them.
func (m *measure) conflicted(c *call, hit []bool) {
	p := m.pattern(c.pattern)
	for i, h := range hit {
		if !h {
			continue
		}
		p.Conflicts++
		if _, ok := m.items[c.items[i]]; ok || len(m.items) < maxConflictItems {
			m.items[c.items[i]]++
		}
	}
}

// isolated marks the partition a value was just isolated on.
func (m *measure) isolated(s *space) {
	m.part(s, s.Count()-1).isolated = true
}

// ended counts a call's outcome: its attempts and the SDK's retries
// among them (each beyond the call's first), and when it was denied,
// every partition it would have consumed on.
func (m *measure) ended(e *Emulator, c *call, now int64) {
	p := m.pattern(c.pattern)
	p.Calls++
	p.Attempts += int64(c.attempts)
	p.Retries += int64(max(c.attempts-1, 0))
	p.Unprocessed += int64(c.unprocessed)
	if c.cancelled() {
		p.Cancelled++
	}
	if c.conflictCancelled() {
		p.ConflictCancelled++
	}
	throttled := c.throttled()
	if throttled {
		p.Throttled++
	} else if !c.givenUp() {
		return
	}
	if c.kind == kindTxWrite {
		for _, id := range c.items {
			k := itemPattern{id, c.pattern}
			if _, ok := m.txDenied[k]; ok || len(m.txDenied) < maxConflictItems {
				m.txDenied[k]++
			}
		}
	}
	for _, tc := range c.touches {
		s := e.tableOf(tc.table, now).space(tc.target)
		units, exact := e.demand(s, tc)
		k := slot{s.name, tc.key}
		m.denied[k] = deny(m.denied[k], tc.side, units, exact)
		at := cell{k, second(now)}
		m.deniedAt[at] = deny(m.deniedAt[at], tc.side, units, exact)
		if tc.key == "" {
			continue
		}
		p := m.part(s, s.Partition(tc.key))
		if throttled {
			p.throttled[tc.side]++
			p.second(second(now)).throttled[tc.side]++
		} else {
			p.dropped[tc.side]++
		}
		if units > 0 {
			p.deniedUnits[tc.side] += units
		} else {
			p.unsized[tc.side]++
		}
	}
}

// attempted follows an attempt of c decided at now: the SDK's backoff
// since the call's previous attempt, when that one was refused, and when
// this one is.
func (m *measure) attempted(c *call, now int64) {
	if c.refusedAt != 0 {
		m.waited(c.refusedAt, now)
	}
	c.refusedAt = 0
	if c.last != nil {
		c.refusedAt = now
	}
}

// waited counts a wait in the SDK's backoff, from one refused attempt
// (Unix nanoseconds) to the call's next, in the seconds it spans.
func (m *measure) waited(from, to int64) {
	for from < to {
		end := min(to, (from/1e9+1)*1e9)
		m.backoff[from/1e9] += end - from
		from = end
	}
}

// PatternThrottles is what throttling did to one pattern's DynamoDB
// requests (a pattern call makes one or more: pages, a design's resending
// of a write in conflict): Calls, the requests made through the SDK;
// Attempts the SDK sent for them and Retries, its attempts beyond each
// request's first (a request cut short before its first attempt has none,
// so Attempts may be fewer than Calls); Refused attempts, Throttled
// requests (the SDK gave up, or a transaction was cancelled), batch items
// left Unprocessed and transactions Cancelled for throttling; item-level
// Conflicts (as CloudWatch's TransactionConflict counts them) and
// transactions ConflictCancelled for a conflict.
type PatternThrottles struct {
	Pattern     designs.PatternID `json:"pattern"`
	Calls       int64             `json:"calls"`
	Attempts    int64             `json:"attempts"`
	Retries     int64             `json:"retries"`
	Refused     int64             `json:"refused_attempts"`
	Throttled   int64             `json:"throttled_calls"`
	Unprocessed int64             `json:"unprocessed_items,omitempty"`
	Cancelled   int64             `json:"cancelled_transactions,omitempty"`

	Conflicts         int64 `json:"transaction_conflicts,omitempty"`
	ConflictCancelled int64 `json:"cancelled_for_conflict,omitempty"`
}

// PartitionThrottles is one side of a partition that throttled: where, its
// busiest partition key values, when it first refused and for how many
// seconds, and what it held against what the model forecasts.
//
// Demand per request is the side's units served there and those its
// denied calls (refused to the end, or given up for a transaction
// conflict) would have consumed, each priced from its own request (one
// of unknown size at what a served call there consumed), per request of
// the mix; Calls counts both.
// ForecastRate is the mix rate at which that demand reaches the
// partition's limit; MeasuredRate is the rate its units in the seconds it
// refused stand for, HeldUnits a second. Share is the share
// of the calls that reached it in those seconds and ended throttled (a
// call counts in the second it ended); ForecastShare is the model's share
// refused at the run's rate, once the partition is at its limit.
type PartitionThrottles struct {
	Target           string    `json:"target"`
	Partition        int       `json:"partition"`
	Isolated         bool      `json:"isolated,omitempty"`
	Keys             []string  `json:"keys"`
	Side             string    `json:"side"`
	Reason           string    `json:"reason,omitempty"`
	Limit            float64   `json:"limit_units_per_second"`
	First            time.Time `json:"first_throttle"`
	FirstSecond      float64   `json:"first_throttle_second"`
	ThrottledSeconds int       `json:"throttled_seconds"`
	Refused          int64     `json:"refused_attempts"`
	Calls            int64     `json:"calls"`
	Throttled        int64     `json:"throttled_calls"`
	HeldUnits        float64   `json:"held_units_per_second"`
	DemandPerRequest float64   `json:"demand_per_request"`
	ForecastRate     float64   `json:"forecast_rate"`
	MeasuredRate     float64   `json:"measured_rate"`
	Share            float64   `json:"throttled_share"`
	ForecastShare    float64   `json:"forecast_share"`
}

// BudgetThrottles is one side of a table's or GSI's own budget that
// refused attempts before any partition was asked: which budget (one of
// BudgetProvisioned, BudgetWarm, BudgetMax, BudgetQuota), when it first refused, in
// how many seconds, and how many attempts. Its demand is its whole
// table's or GSI's, which the capacity model's table ceiling gives. The
// rows of Throttling's Partitions and Budgets together count every
// attempt refused.
type BudgetThrottles struct {
	Target           string    `json:"target"`
	Budget           string    `json:"budget"`
	Side             string    `json:"side"`
	Reason           string    `json:"reason,omitempty"`
	First            time.Time `json:"first_throttle"`
	FirstSecond      float64   `json:"first_throttle_second"`
	ThrottledSeconds int       `json:"throttled_seconds"`
	Refused          int64     `json:"refused_attempts"`
}

// KeySecond is the attempts refused on one partition key value in one
// second.
type KeySecond struct {
	Target  string    `json:"target"`
	Key     string    `json:"key"`
	Second  time.Time `json:"second"`
	Refused int64     `json:"refused_attempts"`
}

// Throttling is what the emulator measured over a run.
type Throttling struct {
	Scale      float64              `json:"limits_scale"` // the factor on every limit, as capacity.Report.Scale
	Billing    string               `json:"billing"`
	Rate       float64              `json:"rate"` // the mix's requests per second the shares are forecast at
	Patterns   []PatternThrottles   `json:"patterns"`
	Partitions []PartitionThrottles `json:"partitions"`
	Budgets    []BudgetThrottles    `json:"budgets,omitempty"` // absent from files written before budgets had rows
	Keys       []KeySecond          `json:"keys,omitempty"`
	Isolations int                  `json:"isolations,omitempty"`
	// Totals over the patterns.
	Calls       int64 `json:"calls"`
	Retries     int64 `json:"retries"`
	Refused     int64 `json:"refused_attempts"`
	Throttled   int64 `json:"throttled_calls"`
	Unprocessed int64 `json:"unprocessed_items"`
	Cancelled   int64 `json:"cancelled_transactions"`

	// Transaction conflicts: item-level ones, transactions they
	// cancelled, and the items with the most (ConflictItems, most first).
	Conflicts         int64           `json:"transaction_conflicts"`
	ConflictCancelled int64           `json:"cancelled_for_conflict"`
	ConflictItems     []ItemConflicts `json:"conflict_items,omitempty"`
	ConflictsOff      bool            `json:"conflicts_off,omitempty"`

	// ClientRetries says the retries were a client's own, out of the
	// emulator's sight (local --limits: each attempt comes as a call of
	// its own); Retries then counts none.
	ClientRetries bool `json:"client_retries,omitempty"`
}

// add counts another row of the same pattern into p: another shard's.
func (p *PatternThrottles) add(o PatternThrottles) {
	p.Calls += o.Calls
	p.Attempts += o.Attempts
	p.Retries += o.Retries
	p.Refused += o.Refused
	p.Throttled += o.Throttled
	p.Unprocessed += o.Unprocessed
	p.Cancelled += o.Cancelled
	p.Conflicts += o.Conflicts
	p.ConflictCancelled += o.ConflictCancelled
}

// total sets the run's totals to its patterns' sums, on one emulator and
// on shards merged alike.
func (t *Throttling) total() {
	var all PatternThrottles
	for _, p := range t.Patterns {
		all.add(p)
	}
	t.Calls, t.Retries, t.Refused, t.Throttled = all.Calls, all.Retries, all.Refused, all.Throttled
	t.Unprocessed, t.Cancelled = all.Unprocessed, all.Cancelled
	t.Conflicts, t.ConflictCancelled = all.Conflicts, all.ConflictCancelled
}

// Totalled is t with its totals set to its patterns' sums, as the
// emulator writes them: a file whose totals differ was edited.
func (t Throttling) Totalled() Throttling {
	t.total()
	return t
}

// ItemConflicts is the item-level conflicts on one item.
type ItemConflicts struct {
	Item      string `json:"item"` // its key: "pk" or "pk / sk"
	Conflicts int64  `json:"transaction_conflicts"`
}

// conflictItemsShown is how many items Measured lists by their conflicts.
const conflictItemsShown = 10

// itemPattern is an item (conflict.go's itemID) and a pattern.
type itemPattern struct {
	item    string
	pattern designs.PatternID
}

// TxDenied is how many TransactWriteItems calls of each pattern that would
// have written each item (by its key, "pk" or "pk / sk") were denied:
// throttled, or given up for a transaction conflict. They never reached
// the ledger, yet asked for the item as the served ones did: the capacity
// model counts them in the item's conflict limit (capacity.Model.TxDenied),
// so that how many conflicts a run met, which grows as the test bed slows,
// does not move it.
func (e *Emulator) TxDenied() map[string]map[designs.PatternID]int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]map[designs.PatternID]int64{}
	for k, n := range e.m.txDenied {
		name := itemName(k.item)
		if out[name] == nil {
			out[name] = map[designs.PatternID]int64{}
		}
		out[name][k.pattern] += n
	}
	return out
}

// Denied is the calls that would have read from (Reads) and written to
// (Writes) a target's partition key value and were denied: throttled, or
// refused for a transaction conflict and given up (the design does not
// send them again); and what they would have consumed there, each priced
// from its own request. The capacity model adds that demand back, so that
// its forecast moves neither with the throttling nor with the conflicts a
// run met.
//
// A design sends a write in conflict again a few times
// (designs.ConflictRetries) and marks the sendings it will repeat
// (designs.ResentOnConflict): those are not counted, as the pattern call's
// demand is the next sending's.
func (e *Emulator) Denied(target, key string) capacity.Denial {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.m.denied[slot{target, key}]
}

// BackoffHeld is how long calls waited in the SDK's backoff between a
// refused attempt and their next one, in the time from from to to (each
// second's waits counted as spread over it).
func (e *Emulator) BackoffHeld(from, to time.Time) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	var held float64
	for sec := from.Unix(); sec <= to.Unix(); sec++ {
		lo, hi := max(from.UnixNano(), sec*1e9), min(to.UnixNano(), (sec+1)*1e9)
		if hi > lo {
			held += float64(e.m.backoff[sec]) * float64(hi-lo) / 1e9
		}
	}
	return time.Duration(held)
}

// DeniedAt is Denied for the calls that ended in second sec (Unix):
// the capacity model's replay puts their demand back in its second.
func (e *Emulator) DeniedAt(target, key string, sec int64) capacity.Denial {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.m.deniedAt[cell{slot{target, key}, sec}]
}

// Measured sums up the run: requests calls of the mix over span.
func (e *Emulator) Measured(requests int64, span time.Duration) Throttling {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := Throttling{Scale: e.cfg.Scale, Billing: "on-demand"}
	if e.provisioned() {
		r.Billing = "provisioned"
	}
	if span > 0 {
		r.Rate = float64(requests) / span.Seconds()
	}
	for _, id := range slices.Sorted(maps.Keys(e.m.patterns)) {
		r.Patterns = append(r.Patterns, *e.m.patterns[id])
	}
	r.total()
	r.ConflictsOff = e.cfg.NoConflicts
	for id, n := range e.m.items {
		r.ConflictItems = append(r.ConflictItems, ItemConflicts{itemName(id), n})
	}
	r.ConflictItems = topConflicts(r.ConflictItems)
	for id, p := range e.m.parts {
		if p.isolated {
			r.Isolations++
		}
		for side := range 2 {
			if p.first[side] != 0 {
				r.Partitions = append(r.Partitions, e.partitionReport(id, p, side, requests, r.Rate))
			}
		}
	}
	slices.SortFunc(r.Partitions, func(a, b PartitionThrottles) int {
		return cmp.Or(a.First.Compare(b.First), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Side, b.Side))
	})
	for id, b := range e.m.budgets {
		for side := range 2 {
			if b.first[side] != 0 {
				r.Budgets = append(r.Budgets, e.budgetReport(id, b, side))
			}
		}
	}
	slices.SortFunc(r.Budgets, byFirstRefusal)
	for c, n := range e.m.cells {
		r.Keys = append(r.Keys, KeySecond{Target: c.target, Key: c.key, Second: time.Unix(c.sec, 0).UTC(), Refused: n})
	}
	slices.SortFunc(r.Keys, func(a, b KeySecond) int {
		return cmp.Or(a.Second.Compare(b.Second), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Key, b.Key))
	})
	return r
}

// topConflicts sorts items by conflicts, most first, and keeps
// conflictItemsShown.
func topConflicts(items []ItemConflicts) []ItemConflicts {
	slices.SortFunc(items, func(a, b ItemConflicts) int {
		return cmp.Or(cmp.Compare(b.Conflicts, a.Conflicts), cmp.Compare(a.Item, b.Item))
	})
	return items[:min(len(items), conflictItemsShown)]
}

// byFirstRefusal orders budget rows by their first refusal, then by
// which.
func byFirstRefusal(a, b BudgetThrottles) int {
	return cmp.Or(a.First.Compare(b.First), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Budget, b.Budget), cmp.Compare(a.Side, b.Side))
}

// budgetReport is one side of a budget's row.
func (e *Emulator) budgetReport(id budgetID, b *budgetStats, side int) BudgetThrottles {
	pt := BudgetThrottles{Target: id.space, Budget: id.kind, Side: [2]string{"read", "write"}[side], Reason: b.reason[side],
		First: time.Unix(0, b.first[side]).UTC(), FirstSecond: float64(b.first[side]-e.m.start) / 1e9, Refused: b.refused[side]}
	for _, n := range b.seconds {
		if n[side] > 0 {
			pt.ThrottledSeconds++
		}
	}
	return pt
}

func (e *Emulator) partitionReport(id partID, p *partStats, side int, requests int64, rate float64) PartitionThrottles {
	limit := p.space.Limit()[side]
	pt := PartitionThrottles{Target: id.space, Partition: id.i, Isolated: p.isolated, Keys: e.topKeys(p.n, 3),
		Side: [2]string{"read", "write"}[side], Reason: reason(p.space, side, throughput.KeyRange), Limit: limit, First: time.Unix(0, p.first[side]).UTC(),
		FirstSecond: float64(p.first[side]-e.m.start) / 1e9, Refused: p.refused[side],
		Calls: p.calls[side] + p.throttled[side] + p.dropped[side], Throttled: p.throttled[side]}
	var held float64
	var reached, throttled int64
	for _, s := range p.seconds {
		if s.refused[side] > 0 {
			pt.ThrottledSeconds++
			held += s.units[side]
			reached += s.calls[side] + s.throttled[side]
			throttled += s.throttled[side]
		}
	}
	if pt.ThrottledSeconds > 0 {
		pt.HeldUnits = held / float64(pt.ThrottledSeconds)
	}
	if requests > 0 {
		// Served units, and each denied call's own (an unsized one at what
		// a served call here consumed).
		demand := p.units[side] + p.deniedUnits[side]
		if p.calls[side] > 0 {
			demand += p.units[side] / float64(p.calls[side]) * float64(p.unsized[side])
		}
		pt.DemandPerRequest = demand / float64(requests)
	}
	if pt.DemandPerRequest > 0 {
		pt.ForecastRate = limit / pt.DemandPerRequest
		pt.MeasuredRate = pt.HeldUnits / pt.DemandPerRequest
		if rate > pt.ForecastRate {
			pt.ForecastShare = 1 - pt.ForecastRate/rate
		}
	}
	if reached > 0 {
		pt.Share = float64(throttled) / float64(reached)
	}
	return pt
}

// topKeys lists the texts of partition part's n values with the most
// units, most first, keeping n of them at a time: a partition may have
// seen millions.
func (e *Emulator) topKeys(part uint32, n int) []string {
	type value struct {
		text  string
		units float64
	}
	order := func(a, b value) int { return cmp.Or(cmp.Compare(b.units, a.units), cmp.Compare(a.text, b.text)) }
	var top []value
	for at, u := range e.m.keys.All() {
		if at.part != part {
			continue
		}
		v := value{e.names.Text(at.key), u}
		i, _ := slices.BinarySearchFunc(top, v, order)
		if i < n {
			top = slices.Insert(top, i, v)[:min(n, len(top)+1)]
		}
	}
	out := make([]string, len(top))
	for i, v := range top {
		out[i] = v.text
	}
	return out
}

// Placed is the partition of space (designs.MainTable or a GSI) that holds
// partition key value key, and the space's partitions, as placed now
// (isolated values on their own); (0, 1) for a space no call reached.
func (e *Emulator) Placed(space, key string) (part, partitions int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, name := range tables(e.tables) {
		if s := e.tables[name].spaces[space]; s != nil {
			return s.Partition(key), s.Count()
		}
	}
	return 0, 1
}
