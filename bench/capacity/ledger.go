package capacity

import (
	"math"
	"sync"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Ledger gathers a run's charges: per (target, partition key, second), per
// target and key over the run, per pattern beside DynamoDB Local's own
// figures, and the sizes of the items and item collections the run wrote.
// The model reads it after the run. Observe is safe for concurrent use.
type Ledger struct {
	schema      ddbitem.Schema
	mu          sync.Mutex
	cells       map[cell]*usage
	keys        map[slot]*keyStats
	targets     map[string]*targetStats
	patterns    map[patternOp]*PatternUsage
	diffs       map[diffKey]*Disagreement
	items       map[string]*itemTrack
	collections map[string]*collectionTrack
	indexKeys   map[slot]*collectionTrack // GSI partition key values, as collections
	first, last int64                     // unix seconds of the first and last charge
	observed    int64                     // observations
}

// cell is one partition key of one target in one second.
type cell struct {
	slot
	sec int64
}

// slot is one partition key of one target.
type slot struct{ target, key string }

// usage is a pair of read and write units.
type usage struct{ rcu, wcu float64 }

// keyStats is one slot's run: units, the calls that touched it, and the
// weighted units each pattern put on it.
type keyStats struct {
	usage
	calls                 int64
	readCalls, writeCalls int64
	byPattern             map[designs.PatternID]float64
}

// targetStats counts the calls that read from or wrote to a target.
type targetStats struct {
	usage
	readCalls, writeCalls int64
}

// itemTrack follows one item's size: its first and latest, and its share
// of its item collection (with its LSI entries).
type itemTrack struct {
	pk, sk      string
	first, last int
	coll        int
	writes      int // successful writes the run made to the item
	grows       int // of those, the ones that left it larger
}

// collectionTrack follows the bytes of one table partition key value the run
// has seen: known is the sum of the latest sizes of its items the run
// wrote, added what the run's writes added to it.
type collectionTrack struct {
	pk           string
	known, added int
	grows        int // writes that enlarged it
}

// patternOp is one operation of one pattern: a pattern that reads, then
// writes in a transaction, has a row for each.
type patternOp struct {
	pattern designs.PatternID
	op      designs.Operation
}

// diffKey is one pattern operation's figure on one target.
type diffKey struct {
	patternOp
	target string
}

// NewLedger returns an empty ledger of the calls on a table of schema s.
func NewLedger(s designs.Schema) *Ledger {
	return &Ledger{
		schema:      s.ItemSchema(),
		cells:       map[cell]*usage{},
		keys:        map[slot]*keyStats{},
		targets:     map[string]*targetStats{},
		patterns:    map[patternOp]*PatternUsage{},
		diffs:       map[diffKey]*Disagreement{},
		items:       map[string]*itemTrack{},
		collections: map[string]*collectionTrack{},
		indexKeys:   map[slot]*collectionTrack{},
		first:       math.MaxInt64,
		last:        math.MinInt64,
	}
}

// Observe accounts one call (Account), records its charges, compares them
// with DynamoDB Local's figure and follows the sizes of the items it wrote.
// It returns the charges.
func (l *Ledger) Observe(o Observation) []Charge {
	charges := Account(l.schema, o)
	local := localUnits(o)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.observed++
	l.record(o, charges)
	if local != nil && o.Evaluated != EvaluatedLocal {
		l.compare(o, charges, local)
	}
	for _, w := range o.Writes {
		if !w.Failed && !ddbitem.Equal(w.Before, w.After) {
			l.follow(l.schema, w)
		}
	}
	return charges
}

// record adds the charges to the cells, slots, targets and pattern.
func (l *Ledger) record(o Observation, charges []Charge) {
	p := l.patterns[patternOp{o.Pattern, o.Op}]
	if p == nil {
		p = &PatternUsage{Pattern: o.Pattern, Op: o.Op}
		l.patterns[patternOp{o.Pattern, o.Op}] = p
	}
	p.Calls++
	if o.Filtered || o.Counted {
		p.Filtered += b2i(o.Filtered)
		p.Counted += b2i(o.Counted)
		p.Returned += int64(o.Returned)
		p.Evaluated += int64(o.Scanned)
		p.LocalCharged += b2i(o.Evaluated == EvaluatedLocal)
	}
	touched := map[string]usage{}
	for _, c := range charges {
		sec := c.At.Unix()
		l.first, l.last = min(l.first, sec), max(l.last, sec)
		s := slot{c.Target, c.Key}
		u := l.cells[cell{s, sec}]
		if u == nil {
			u = &usage{}
			l.cells[cell{s, sec}] = u
		}
		u.rcu, u.wcu = u.rcu+c.RCU, u.wcu+c.WCU
		k := l.keys[s]
		if k == nil {
			k = &keyStats{byPattern: map[designs.PatternID]float64{}}
			l.keys[s] = k
		}
		k.rcu, k.wcu, k.calls = k.rcu+c.RCU, k.wcu+c.WCU, k.calls+1
		if c.RCU > 0 {
			k.readCalls++
		}
		if c.WCU > 0 {
			k.writeCalls++
		}
		k.byPattern[o.Pattern] += weight(c.RCU, c.WCU)
		p.RCU, p.WCU = p.RCU+c.RCU, p.WCU+c.WCU
		t := touched[c.Target]
		touched[c.Target] = usage{t.rcu + c.RCU, t.wcu + c.WCU}
	}
	for name, u := range touched {
		t := l.targets[name]
		if t == nil {
			t = &targetStats{}
			l.targets[name] = t
		}
		t.rcu, t.wcu = t.rcu+u.rcu, t.wcu+u.wcu
		if u.rcu > 0 {
			t.readCalls++
		}
		if u.wcu > 0 {
			t.writeCalls++
		}
	}
}

// weight is CloudWatch Contributor Insights' ranking of a key's traffic
// (ConsumedThroughputUnits): three times its write units plus its read units.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html#contributorinsights_HowItWorks.Graphs.most-accessed
func weight(rcu, wcu float64) float64 { return 3*wcu + rcu }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
