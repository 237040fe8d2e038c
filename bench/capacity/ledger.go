package capacity

import (
	"math"
	"slices"
	"sync"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Ledger gathers a run's charges: per (target, partition key, second), per
// target and key over the run, per pattern beside DynamoDB Local's own
// figures, and the sizes of the items and item collections the run wrote.
// The model reads it after the run. Observe is safe for concurrent use.
//
// Its memory grows with the distinct keys and items a run touches, and
// with the seconds each key was charged in, never with the calls: a key
// holds its seconds in a slice (24 bytes each), an item about 100 bytes
// (its key once, and six 32-bit figures).
type Ledger struct {
	schema      ddbitem.Schema
	mu          sync.Mutex
	keys        map[slot]*keyStats
	targets     map[string]*targetStats
	patterns    map[patternOp]*PatternUsage
	diffs       map[diffKey]*Disagreement
	items       map[string]itemTrack
	collections map[string]collectionTrack
	indexKeys   map[slot]collectionTrack // GSI partition key values, as collections
	named       map[string][2]string     // key texts of items whose id is no KeyID (merged files)
	first, last int64                    // unix seconds of the first and last charge
	observed    int64                    // observations
}

// second is one slot's units in one second.
type second struct {
	sec int64
	usage
}

// slot is one partition key of one target.
type slot struct{ target, key string }

// usage is a pair of read and write units.
type usage struct{ rcu, wcu float64 }

// keyStats is one slot's run: units, the calls that touched it, the
// weighted units each pattern put on it (a few patterns: a slice) and its
// units per second, by second.
type keyStats struct {
	usage
	calls                 int64
	readCalls, writeCalls int64
	byPattern             []PatternWeight
	seconds               []second
}

// cell returns the units of second sec, adding the second in order if
// new. Charges come in nearly in order of their second (a call is charged
// at its start, recorded at its end), so the search starts from the end.
func (k *keyStats) cell(sec int64) *usage {
	i := len(k.seconds)
	for i > 0 && k.seconds[i-1].sec > sec {
		i--
	}
	if i > 0 && k.seconds[i-1].sec == sec {
		return &k.seconds[i-1].usage
	}
	k.seconds = slices.Insert(k.seconds, i, second{sec: sec})
	return &k.seconds[i].usage
}

// weigh adds w to pattern p's weight on the slot.
func (k *keyStats) weigh(p designs.PatternID, w float64) {
	for i := range k.byPattern {
		if k.byPattern[i].Pattern == p {
			k.byPattern[i].Weight += w
			return
		}
	}
	k.byPattern = append(k.byPattern, PatternWeight{Pattern: p, Weight: w})
}

// weights is byPattern as a map, for the analysis.
func (k *keyStats) weights() map[designs.PatternID]float64 {
	m := make(map[designs.PatternID]float64, len(k.byPattern))
	for _, w := range k.byPattern {
		m[w.Pattern] = w.Weight
	}
	return m
}

// targetStats counts the calls that read from or wrote to a target.
type targetStats struct {
	usage
	readCalls, writeCalls int64
}

// itemTrack follows one item's size: its first and latest, and its share
// of its item collection (with its LSI entries). Its key is the map's (the
// item's KeyID): the partition key text is pkLen bytes of it, after the
// type tag. Sizes fit in 32 bits: an item is at most 400 KB.
type itemTrack struct {
	pkLen       int32
	first, last int32
	coll        int32
	writes      int32 // successful writes the run made to the item
	grows       int32 // of those, the ones that left it larger
}

// keysFromID reads an item's partition and sort key texts back from its
// KeyID (a type tag, the text and a 0 byte for each), the partition key's
// text pkLen bytes long; ok is false for an id not so made.
func keysFromID(id string, pkLen int) (pk, sk string, ok bool) {
	if pkLen < 0 || len(id) < pkLen+2 || id[1+pkLen] != 0 {
		return "", "", false
	}
	pk = id[1 : 1+pkLen]
	switch rest := id[2+pkLen:]; {
	case rest == "":
	case len(rest) >= 2 && rest[len(rest)-1] == 0:
		sk = rest[1 : len(rest)-1]
	default:
		return "", "", false
	}
	return pk, sk, true
}

// itemKeys are the partition and sort key texts of item id.
func (l *Ledger) itemKeys(id string, it itemTrack) (pk, sk string) {
	if k, ok := l.named[id]; ok {
		return k[0], k[1]
	}
	pk, sk, _ = keysFromID(id, int(it.pkLen))
	return pk, sk
}

// collectionTrack follows the bytes of one table partition key value (its
// map's key) the run has seen: known is the sum of the latest sizes of its
// items the run wrote, added what the run's writes added to it.
type collectionTrack struct {
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
		keys:        map[slot]*keyStats{},
		targets:     map[string]*targetStats{},
		patterns:    map[patternOp]*PatternUsage{},
		diffs:       map[diffKey]*Disagreement{},
		items:       map[string]itemTrack{},
		collections: map[string]collectionTrack{},
		indexKeys:   map[slot]collectionTrack{},
		named:       map[string][2]string{},
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
		k := l.keys[s]
		if k == nil {
			k = &keyStats{}
			l.keys[s] = k
		}
		u := k.cell(sec)
		u.rcu, u.wcu = u.rcu+c.RCU, u.wcu+c.WCU
		k.rcu, k.wcu, k.calls = k.rcu+c.RCU, k.wcu+c.WCU, k.calls+1
		if c.RCU > 0 {
			k.readCalls++
		}
		if c.WCU > 0 {
			k.writeCalls++
		}
		k.weigh(o.Pattern, weight(c.RCU, c.WCU))
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
