package lint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/workload"
)

// probe is what probeCalls calls of one write step of a scenario did, or
// why the step could not be probed.
type probe struct {
	scenario string
	pattern  designs.PatternID
	tx       bool   // the pattern writes in a transaction
	pool     int    // entities the scenario's driver seeded
	entity   string // the step's Entity: the driver's pool its keys index
	space    int    // how many keys the step draws from
	calls    int    // calls made
	ok       int    // calls that succeeded
	failure  string // why the step was not probed; "" when it was
	hot      []rewrite
}

// rewrite is what the successful calls of a step did to one item they
// wrote on at least HotItemShare of them.
type rewrite struct {
	key     string  // the item's key, as itemKey writes it
	pk      string  // its partition key value
	wrote   int     // the calls that changed it
	drew    int     // the distinct keys those calls drew
	itemWCU float64 // the most write units a call spent on the item
	keyWCU  float64 // the most a call spent on its partition key value
}

// probeScenario seeds sc's own pool in memory and probes its write steps;
// a seed that fails leaves every write step not probed, saying why.
func probeScenario(ctx context.Context, d designs.Design, sc workload.Scenario, rnd int64) []probe {
	s, err := seedWith(ctx, d, sc, sc.Pool, rnd, true)
	if err != nil {
		return failed(d, sc, "its seed failed: "+err.Error())
	}
	return s.probes
}

// failed is a probe of each write step of sc, not made for why.
func failed(d designs.Design, sc workload.Scenario, why string) []probe {
	var out []probe
	for _, i := range writeSteps(d, sc) {
		out = append(out, probe{scenario: sc.Name, pattern: sc.Mix[i].Pattern, pool: sc.Pool, failure: why})
	}
	return out
}

// writeSteps are the indexes in sc's mix of the steps with a weight whose
// pattern writes, the first of each pattern.
func writeSteps(d designs.Design, sc workload.Scenario) []int {
	var out []int
	seen := map[designs.PatternID]bool{}
	for i, st := range sc.Mix {
		if p, ok := d.Pattern(st.Pattern); ok && st.Weight > 0 && writes(p.Op) && !seen[st.Pattern] {
			seen[st.Pattern] = true
			out = append(out, i)
		}
	}
	return out
}

// unmixed is a probe, not made, of each write pattern of d that no step
// of scs calls.
func unmixed(d designs.Design, scs []workload.Scenario) []probe {
	var names []string
	mixed := map[designs.PatternID]bool{}
	for _, sc := range scs {
		names = append(names, sc.Name)
		for _, i := range writeSteps(d, sc) {
			mixed[sc.Mix[i].Pattern] = true
		}
	}
	var out []probe
	for _, p := range d.Patterns {
		if writes(p.Op) && !mixed[p.ID] {
			out = append(out, probe{pattern: p.ID, failure: "no step of " + strings.Join(names, ", ") + " calls it"})
		}
	}
	return out
}

// probeCalls is how many calls of each write step the probe makes.
const probeCalls = 100

// probeWrites calls each write step of sc probeCalls times through drv on
// the memory table drv seeded, each on a key the step draws as bench
// would: from its own key space (sc.KeySpace: its Entity's pool, else the
// scenario's) through its distribution. changes collects what each call
// wrote. A step the memory table cannot serve (one that reads with a Query
// first), or whose calls fail, is not probed, and its probe says why.
func probeWrites(ctx context.Context, d designs.Design, sc workload.Scenario, drv workload.Driver, changes *[]memtable.Change, rnd int64) []probe {
	space, err := sc.KeySpace(drv)
	if err != nil {
		return failed(d, sc, err.Error())
	}
	var out []probe
	for _, i := range writeSteps(d, sc) {
		out = append(out, probeStep(ctx, d, sc, sc.Mix[i], space[i], drv, changes, rnd))
	}
	return out
}

// probeStep makes one step's calls and measures, for each item they
// wrote, how many of them did and what each spent on it and on its
// partition key value.
func probeStep(ctx context.Context, d designs.Design, sc workload.Scenario, st workload.Step, space int,
	drv workload.Driver, changes *[]memtable.Change, rnd int64) probe {
	p, _ := d.Pattern(st.Pattern)
	pr := probe{scenario: sc.Name, pattern: p.ID, tx: p.Op == designs.TransactWriteItems, pool: sc.Pool, entity: st.Entity, space: space}
	dist := st.Keys
	if dist == nil {
		dist = workload.Uniform{}
	}
	is := d.Schema.ItemSchema()
	type seen struct {
		rewrite
		keys map[int]bool // the keys drawn by the calls that wrote the item
	}
	items := map[string]*seen{}
	var firstErr error
	for i := range probeCalls {
		*changes = (*changes)[:0]
		r := rand.New(rand.NewPCG(uint64(rnd), uint64(i)))
		key := dist.Pick(r, space)
		pr.calls++
		if err := call(ctx, drv, p.ID, key, r); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		pr.ok++
		itemWCU, keyWCU, pkOf := map[string]float64{}, map[string]float64{}, map[string]string{}
		for _, c := range *changes {
			img := image(c)
			if img == nil {
				continue
			}
			k, pk := itemKey(d.Schema, img), ddbitem.KeyText(img[d.Schema.PK])
			pkOf[k] = pk
			o := pricing.Observation{At: time.Unix(0, 0), Pattern: p.ID, Op: p.Op, Table: "lint", Transactional: pr.tx,
				Writes: []pricing.Write{{Before: c.Before, After: c.After, Key: c.Write.Key}}}
			for _, ch := range pricing.Account(is, o) {
				if ch.Target == designs.MainTable {
					itemWCU[k] += ch.WCU
					keyWCU[ch.Key] += ch.WCU
				}
			}
		}
		for k, pk := range pkOf {
			s := items[k]
			if s == nil {
				s = &seen{rewrite: rewrite{key: k, pk: pk}, keys: map[int]bool{}}
				items[k] = s
			}
			s.wrote++
			s.keys[key] = true
			s.itemWCU, s.keyWCU = max(s.itemWCU, itemWCU[k]), max(s.keyWCU, keyWCU[pk])
		}
	}
	if pr.ok < MinEntries {
		pr.failure = fmt.Sprintf("%d of %d calls succeeded", pr.ok, pr.calls)
		if firstErr != nil {
			pr.failure += ": " + firstErr.Error()
		}
		return pr
	}
	for _, s := range items {
		if float64(s.wrote) >= HotItemShare*float64(pr.ok) {
			s.drew = len(s.keys)
			pr.hot = append(pr.hot, s.rewrite)
		}
	}
	slices.SortFunc(pr.hot, func(a, b rewrite) int { return strings.Compare(a.key, b.key) })
	return pr
}

// image is the item a change left, or the one it deleted.
func image(c memtable.Change) ddbitem.Item {
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

// call makes one call; a driver that panics (on a pattern the memory table
// cannot serve) is an error saying so.
func call(ctx context.Context, drv workload.Driver, p designs.PatternID, key int, r *rand.Rand) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the driver panicked: %v", v)
		}
	}()
	return drv.Call(designs.WithPattern(ctx, p), p, key, r)
}
