package capacity

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// Replay is what the throughput engine (bench/throughput, which the
// limits emulator runs live) refuses when the run's hot partition key
// values are replayed through it second by second: the same rules, split
// for heat included, on the same placement, as the emulator's.
//
// Each hot key's units of each second are fed as calls of its units a
// call, evenly over the second (the ledger keeps no time within a second:
// inferred), with the demand of its calls that were denied in that
// second, throttled or given up for a transaction conflict (limits on; for a merged run of shards, spread over the
// seconds in proportion to the units served in each: inferred). Only the
// hot keys (TopN of each table and GSI) are replayed:
// a table's budget sees no other traffic. Each key is replayed on its own:
// a call that touches several keys, refused on one partition, spends
// nothing on the others live, but each of its keys' demand is replayed in
// full, so where a run's calls span partitions the replay refuses more
// than the emulator would.
type Replay struct {
	First      int64               `json:"first"` // the Unix second replayed first
	Partitions []ReplayedPartition `json:"partitions"`
	Isolations int                 `json:"isolations,omitempty"` // values isolated on a partition of their own (split for heat)
}

// ReplayedPartition is one side of one partition (-1: the table's or
// GSI's budget) the replay refused on:
// its hot keys, the seconds (Unix, as ranges) it refused in, and the share
// of the units fed to it that it refused: a budget is fed every call of
// its space, a partition those its budget let through.
type ReplayedPartition struct {
	Target      string        `json:"target"`
	Partition   int           `json:"partition"`
	Side        string        `json:"side"`
	Keys        []string      `json:"keys"`
	FirstSecond float64       `json:"first_refusal_second"` // from Report.Start
	Seconds     int           `json:"seconds_refused"`
	Ranges      []SecondRange `json:"ranges"`
	Refused     float64       `json:"refused_share"`
}

// SecondRange is the Unix seconds From through To.
type SecondRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// maxReplayCalls bounds the calls a key's second is replayed as: past it,
// each stands for several of the run's (the same units, coarser steps).
const maxReplayCalls = 1000

// maxReplaySeconds bounds the span a replay walks second by second: a run
// lasts at most a day and the bound is twice that; a ledger claiming more
// (a file edited by hand, shards from different days) is not replayed.
const maxReplaySeconds = 2 * 24 * 3600

// replay feeds each space's hot keys through the engine, their demand
// times factor (1: as measured; the target rate over the measured one for
// the forecast, each call as large, factor times as many).
func (r *run) replay(factor float64) *Replay {
	if r.l.First() > r.l.Last() || r.l.Last()-r.l.First() > maxReplaySeconds || factor <= 0 {
		return nil
	}
	out := &Replay{First: r.l.First()}
	budget := maxReplayEvents
	for _, name := range slices.SortedFunc(maps.Keys(r.placed()), ledger.ByTarget) {
		ps, isolations, ok := r.replaySpace(name, r.placed()[name], factor, &budget)
		if !ok {
			return nil // too large to replay call by call
		}
		out.Partitions = append(out.Partitions, ps...)
		out.Isolations += isolations
	}
	return out
}

// maxReplayEvents bounds the calls a replay plays in all, so that a ledger
// claiming absurd traffic (a file edited by hand) cannot hold the report.
const maxReplayEvents = 20_000_000

// feed is one hot key's demand per second, and its units a call.
type feed struct {
	key  string
	secs map[int64]ledger.Usage
	per  ledger.Usage
}

// replaySpace replays space name's hot keys, and says how many of them
// the engine isolated (split for heat, by the rule the emulator follows).
func (r *run) replaySpace(name string, s *spaceLoad, factor float64, budget *int) (out []ReplayedPartition, isolations int, ok bool) {
	if len(s.hot) == 0 {
		return nil, 0, true
	}
	c := r.spaceConfig()
	if name != designs.MainTable {
		c = throughput.IndexConfigOf(r.Settings, r.Schema, name)
	}
	// The engine is configured as the run's emulator configured it, so it
	// lays out the same partitions: a provisioned space's by its
	// throughput, an on-demand one's at its warm throughput, splitting as
	// it grows. Without an emulator (Placed nil) a provisioned space takes
	// those AWS's rules give its data (partitionCount). The emulator's
	// count (Placed) is no layout: it counts the values isolated since.
	if c.Provisioned && r.Placed == nil {
		c.Partitions = s.n
	}
	sp := throughput.NewSpace(c, r.l.First()*int64(time.Second))
	feeds := make([]feed, 0, len(s.hot))
	for _, g := range s.hot {
		feeds = append(feeds, r.feedOf(name, g, factor))
	}
	rf := newRefusals()
	var calls []replayCall
	for sec := r.l.First(); sec <= r.l.Last(); sec++ {
		if calls, ok = callsIn(calls[:0], feeds, sec, budget); !ok {
			return nil, 0, false
		}
		for _, call := range calls {
			if rf.play(sp, call, sec) {
				isolations++
			}
		}
	}
	return rf.partitions(name, r.l.First(), sp, feeds), isolations, true
}

// replayCall is one call a replay plays: when (Unix nanoseconds), on which
// key and side, of how many units.
type replayCall struct {
	at    int64
	key   string
	side  int
	units float64
}

// callsIn appends to calls the calls feeds make in second sec, in time
// order: each key's units of a side as calls of its units a call, evenly
// over the second. It reports false once they spend more than budget.
func callsIn(calls []replayCall, feeds []feed, sec int64, budget *int) ([]replayCall, bool) {
	for _, f := range feeds {
		u := f.secs[sec]
		for side, units := range [2]float64{u.RCU, u.WCU} {
			if units <= 0 {
				continue
			}
			n := 1
			if per := [2]float64{f.per.RCU, f.per.WCU}[side]; per > 0 {
				n = int(min(maxReplayCalls, max(1, math.Round(units/per))))
			}
			if *budget -= n; *budget < 0 {
				return calls, false
			}
			for i := range n {
				calls = append(calls, replayCall{sec*int64(time.Second) + int64((float64(i)+0.5)*float64(time.Second)/float64(n)), f.key, side, units / float64(n)})
			}
		}
	}
	slices.SortStableFunc(calls, func(a, b replayCall) int { return cmp.Compare(a.at, b.at) })
	return calls, true
}

// sidePart is one side of one partition; part -1 is the table's or GSI's
// budget (a call it refused, or a Scan's).
type sidePart struct{ part, side int }

// refusals is what a replay's space refused: by side of each partition,
// the seconds it refused in and the units fed to it and refused; and the
// partitions that refused each key while it was there.
type refusals struct {
	secs      map[sidePart]map[int64]bool
	fed, lost map[sidePart]float64
	named     map[string][]int
}

func newRefusals() *refusals {
	return &refusals{secs: map[sidePart]map[int64]bool{}, fed: map[sidePart]float64{}, lost: map[sidePart]float64{}, named: map[string][]int{}}
}

// play offers call c of second sec to sp, notes a refusal, and reports
// whether the engine isolated c's key (split for heat).
func (rf *refusals) play(sp *throughput.Space, c replayCall, sec int64) (isolated bool) {
	part, ok := sp.Admit(c.key, c.side, c.at)
	// Every call is offered to the budget first; a partition is fed only
	// what the budget let through.
	rf.fed[sidePart{-1, c.side}] += c.units
	a := sidePart{part, c.side}
	if part >= 0 {
		rf.fed[a] += c.units
	}
	if !ok {
		if part >= 0 && !slices.Contains(rf.named[c.key], part) {
			rf.named[c.key] = append(rf.named[c.key], part)
		}
		rf.lost[a] += c.units
		if rf.secs[a] == nil {
			rf.secs[a] = map[int64]bool{}
		}
		rf.secs[a][sec] = true
		return false
	}
	var v [2]float64
	v[c.side] = c.units
	_, isolated = sp.Consume(c.key, v, c.at)
	return isolated
}

// partitions lists the sides of space name's partitions that refused, in
// the order they first did (seconds from first). Each names its hot keys,
// heaviest first: those it holds at the end and those it refused while
// they were there (a split may have moved them since).
func (rf *refusals) partitions(name string, first int64, sp *throughput.Space, feeds []feed) []ReplayedPartition {
	keys := map[int][]string{}
	add := func(part int, key string) {
		if len(keys[part]) < maxWith && !slices.Contains(keys[part], key) {
			keys[part] = append(keys[part], key)
		}
	}
	for _, f := range feeds {
		add(sp.Partition(f.key), f.key)
		for _, part := range rf.named[f.key] {
			add(part, f.key)
		}
	}
	var out []ReplayedPartition
	for a, secs := range rf.secs {
		p := ReplayedPartition{Target: name, Partition: a.part, Side: [2]string{"read", "write"}[a.side], Keys: keys[a.part],
			Seconds: len(secs), Refused: rf.lost[a] / rf.fed[a]}
		sorted := slices.Sorted(maps.Keys(secs))
		p.FirstSecond = float64(sorted[0] - first)
		for _, sec := range sorted {
			if n := len(p.Ranges); n > 0 && p.Ranges[n-1].To == sec-1 {
				p.Ranges[n-1].To = sec
				continue
			}
			p.Ranges = append(p.Ranges, SecondRange{sec, sec})
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b ReplayedPartition) int {
		return cmp.Or(cmp.Compare(a.FirstSecond, b.FirstSecond), cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Side, b.Side))
	})
	return out
}

// feedOf is hot group g's demand per second: the units it was served in
// each, and those its calls that were denied there would have consumed
// (each at its own size, one of unknown size as much as a served call of
// its side); without DeniedAt, the denied calls' demand is
// spread over the seconds in proportion to the units served in each.
func (r *run) feedOf(space string, g *group, factor float64) feed {
	f := feed{key: g.Key, secs: map[int64]ledger.Usage{}}
	var served, per ledger.Usage
	for _, t := range r.targetsOf(space) {
		k := r.l.Key(ledger.Slot{Target: t, Key: g.Key})
		if k == nil {
			continue
		}
		if t == space {
			if k.ReadCalls > 0 {
				per.RCU = k.RCU / float64(k.ReadCalls)
			}
			if k.WriteCalls > 0 {
				per.WCU = k.WCU / float64(k.WriteCalls)
			}
		}
		for _, s := range k.Seconds {
			u := f.secs[s.Sec]
			f.secs[s.Sec] = ledger.Usage{RCU: u.RCU + s.RCU, WCU: u.WCU + s.WCU}
			served.RCU, served.WCU = served.RCU+s.RCU, served.WCU+s.WCU
		}
	}
	f.per = per
	if r.DeniedAt != nil {
		for sec := r.l.First(); sec <= r.l.Last(); sec++ {
			if d := r.DeniedAt(space, g.Key, sec); d.Reads+d.Writes > 0 {
				u := f.secs[sec]
				u.Add(d.units(per))
				f.secs[sec] = u
			}
		}
		for sec, u := range f.secs {
			f.secs[sec] = ledger.Usage{RCU: u.RCU * factor, WCU: u.WCU * factor}
		}
		return f
	}
	scale := ledger.Usage{RCU: factor, WCU: factor}
	if served.RCU > 0 {
		scale.RCU *= g.RCU / served.RCU
	}
	if served.WCU > 0 {
		scale.WCU *= g.WCU / served.WCU
	}
	for sec, u := range f.secs {
		f.secs[sec] = ledger.Usage{RCU: u.RCU * scale.RCU, WCU: u.WCU * scale.WCU}
	}
	return f
}
