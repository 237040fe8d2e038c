package capacity

import (
	"math"
	"slices"
	"sync"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/keytab"
	"github.com/ddbharness/ddbharness/internal/spill"
	"github.com/ddbharness/ddbharness/pricing"
)

// Ledger gathers a run's charges: per (target, partition key, second), per
// target and key over the run, per pattern beside DynamoDB Local's own
// figures, and the sizes of the items and item collections the run wrote.
// The model reads it after the run. Observe is safe for concurrent use.
//
// Its memory never grows with the calls, and hardly with the keys and
// items a run touches. Key texts are numbered in a table (keytab) the
// limits emulator may share, so each is kept once. A key charged in one
// second only, as each invoice or order a run creates, is a compact row
// (once), and the items and collections are fixed-size tracks: those a
// run lately touched stay in memory, the rest go to a file (spill). A key
// charged in a second second gets a full row in memory, its seconds in a
// slice (24 bytes each).
type Ledger struct {
	schema      ddbitem.Schema
	mu          sync.Mutex
	names       *keytab.Numbering           // key texts, target and pattern names
	keys        map[slotID]*keyStats        // keys charged in two seconds or more
	once        *spill.Map[slotID, onceRow] // keys charged in one second only
	patternIDs  []designs.PatternID         // the patterns once rows name
	base        int64                       // the second once rows count from
	based       bool                        // base is set
	targets     map[string]*targetStats
	patterns    map[PatternOp]*PatternUsage
	diffs       map[diffKey]*Disagreement
	items       *spill.Map[itemKey, itemTrack]      // by the ids of the key texts
	uses        *spill.Map[itemKey, itemUse]        // each table item's own units, by pattern
	loose       map[string]itemTrack                // items whose KeyID itemKey cannot rebuild
	collections *spill.Map[uint32, collectionTrack] // by the partition key text's id
	indexKeys   *spill.Map[slotID, collectionTrack] // GSI partition key values, as collections
	named       map[string][2]string                // key texts of items whose id is no KeyID (merged files)
	first, last int64                               // unix seconds of the first and last charge
	observed    int64                               // observations
}

// ledgerRows is how many compact rows, items and collections each the
// ledger keeps in memory, about: those of a run's last few thousand calls.
const ledgerRows = 8192

// second is one slot's units in one second.
type second struct {
	sec int64
	usage
}

// slot is one partition key of one target.
type slot struct{ target, key string }

// slotID is a slot by the ids of its texts in the ledger's names.
type slotID struct{ target, key uint32 }

// onceRow is a slot charged in one second only, by one pattern: its
// totals are that second's. Its counts are 16-bit: a row whose count
// would pass that is made full.
type onceRow struct {
	rcu, wcu, weight             float64
	sec                          int32 // from the ledger's base second
	calls, readCalls, writeCalls uint16
	pattern                      uint16 // index in the ledger's patternIDs
	touches                             // the items its charges touched
}

// touches follows whether a slot's charges all touched one item: the first
// item's KeyID (by its id in the ledger's names, plus one; 0 while none is
// known), and whether another came since. A hot key on one item is hot on
// an item adaptive capacity cannot split.
type touches struct {
	item uint32
	many bool
}

// fold adds a charge's Item.
func (it *touches) fold(names *keytab.Numbering, item string) {
	switch {
	case item == "" || it.many:
	case item == pricing.ManyItems:
		it.many = true
	default:
		id := names.ID(item) + 1
		if it.item == 0 {
			it.item = id
		} else if it.item != id {
			it.many = true
		}
	}
}

// single reports whether every charge that named an item named one.
func (it touches) single() bool { return !it.many && it.item != 0 }

// one is that item's KeyID when single, else "".
func (it touches) one(names *keytab.Numbering) string {
	if !it.single() {
		return ""
	}
	return names.Text(it.item - 1)
}

// full is the row as a keyStats.
func (l *Ledger) full(r onceRow) *keyStats {
	u := usage{r.rcu, r.wcu}
	return &keyStats{usage: u, touches: r.touches, calls: int64(r.calls), readCalls: int64(r.readCalls), writeCalls: int64(r.writeCalls),
		byPattern: []PatternWeight{{Pattern: l.patternIDs[r.pattern], Weight: r.weight}},
		seconds:   []second{{sec: l.base + int64(r.sec), usage: u}}}
}

// compact is the row of a charge of pattern p at second sec, false when
// the second or the pattern does not fit one.
func (l *Ledger) compact(p designs.PatternID, sec int64) (onceRow, bool) {
	if !l.based {
		l.base, l.based = sec, true
	}
	off := sec - l.base
	if off < math.MinInt32 || off > math.MaxInt32 {
		return onceRow{}, false
	}
	i := slices.Index(l.patternIDs, p)
	if i < 0 {
		if len(l.patternIDs) == math.MaxUint16 {
			return onceRow{}, false
		}
		l.patternIDs = append(l.patternIDs, p)
		i = len(l.patternIDs) - 1
	}
	return onceRow{sec: int32(off), pattern: uint16(i)}, true
}

// slotID numbers s's texts.
func (l *Ledger) slotID(s slot) slotID { return slotID{l.names.ID(s.target), l.names.ID(s.key)} }

// slotOf is the slot of id.
func (l *Ledger) slotOf(id slotID) slot { return slot{l.names.Text(id.target), l.names.Text(id.key)} }

// stats returns the full row of id, promoting its compact row or making
// an empty one.
func (l *Ledger) stats(id slotID) *keyStats {
	if k := l.keys[id]; k != nil {
		return k
	}
	k := &keyStats{}
	if r, ok := l.once.Get(id); ok {
		k = l.full(r)
		l.once.Delete(id)
	}
	l.keys[id] = k
	return k
}

// key is s's row, nil when s was never charged; a compact row comes back
// as a full one, not kept. It changes nothing, so eachKey's f may call it.
func (l *Ledger) key(s slot) *keyStats {
	t, ok1 := l.names.Lookup(s.target)
	k, ok2 := l.names.Lookup(s.key)
	if !ok1 || !ok2 {
		return nil
	}
	id := slotID{t, k}
	if k := l.keys[id]; k != nil {
		return k
	}
	if r, ok := l.once.Peek(id); ok {
		return l.full(r)
	}
	return nil
}

// eachKey calls f with every charged slot and its row (compact rows made
// full for the call), in no order.
func (l *Ledger) eachKey(f func(s slot, k *keyStats)) {
	for id, k := range l.keys {
		f(l.slotOf(id), k)
	}
	for id, r := range l.once.All() {
		f(l.slotOf(id), l.full(r))
	}
}

// keyCount is the number of charged slots.
func (l *Ledger) keyCount() int { return len(l.keys) + l.once.Len() }

// charge adds one charge of pattern p at second sec to slot id.
func (l *Ledger) charge(id slotID, p designs.PatternID, sec int64, rcu, wcu float64, item string) {
	k := l.keys[id]
	if k == nil {
		r, ok := l.once.Get(id)
		if !ok {
			r, ok = l.compact(p, sec)
		} else {
			c, fits := l.compact(p, sec)
			ok = fits && c.sec == r.sec && c.pattern == r.pattern && r.calls < math.MaxUint16
		}
		if ok {
			r.rcu, r.wcu, r.calls = r.rcu+rcu, r.wcu+wcu, r.calls+1
			if rcu > 0 {
				r.readCalls++
			}
			if wcu > 0 {
				r.writeCalls++
			}
			r.weight += weight(rcu, wcu)
			r.fold(l.names, item)
			l.once.Set(id, r)
			return
		}
		k = l.stats(id)
	}
	u := k.cell(sec)
	u.rcu, u.wcu = u.rcu+rcu, u.wcu+wcu
	k.rcu, k.wcu, k.calls = k.rcu+rcu, k.wcu+wcu, k.calls+1
	if rcu > 0 {
		k.readCalls++
	}
	if wcu > 0 {
		k.writeCalls++
	}
	k.weigh(p, weight(rcu, wcu))
	k.fold(l.names, item)
}

// usage is a pair of read and write units.
type usage struct{ rcu, wcu float64 }

// add adds o's units to u's.
func (u *usage) add(o usage) { u.rcu, u.wcu = u.rcu+o.rcu, u.wcu+o.wcu }

// keyStats is one slot's run: units, the calls that touched it, the
// weighted units each pattern put on it (a few patterns: a slice) and its
// units per second, by second.
type keyStats struct {
	usage
	touches
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

// itemKey is an item by the ids of its partition and sort key texts in
// the ledger's names and their type tags (KeyID's), skTag 0 without a sort
// key: an item whose partition and sort keys are one text, or name keys
// the ledger already holds, costs no text of its own.
type itemKey struct {
	pk, sk       uint32
	pkTag, skTag byte
}

// itemKeyOf is the itemKey of KeyID id, whose partition key text is pkLen
// bytes long; ok is false when the key would not give id back.
func (l *Ledger) itemKeyOf(id string, pkLen int) (itemKey, bool) {
	pk, sk, ok := keysFromID(id, pkLen)
	if !ok {
		return itemKey{}, false
	}
	k := itemKey{pkTag: id[0]}
	if len(id) > pkLen+2 {
		k.skTag = id[2+pkLen]
	}
	if k.pkTag == 0 || (k.skTag == 0) != (len(id) == pkLen+2) || rebuild(k.pkTag, pk, k.skTag, sk) != id {
		return itemKey{}, false
	}
	k.pk = l.names.ID(pk)
	if k.skTag != 0 {
		k.sk = l.names.ID(sk)
	}
	return k, true
}

// rebuild is the KeyID of an item of key texts pk and sk tagged pkTag and
// skTag (0: no sort key).
func rebuild(pkTag byte, pk string, skTag byte, sk string) string {
	b := make([]byte, 0, len(pk)+len(sk)+4)
	b = append(append(append(b, pkTag), pk...), 0)
	if skTag != 0 {
		b = append(append(append(b, skTag), sk...), 0)
	}
	return string(b)
}

// idOf is the KeyID of k.
func (l *Ledger) idOf(k itemKey) string {
	sk := ""
	if k.skTag != 0 {
		sk = l.names.Text(k.sk)
	}
	return rebuild(k.pkTag, l.names.Text(k.pk), k.skTag, sk)
}

// item is the track of item id (pkLen bytes of partition key text).
func (l *Ledger) item(id string, pkLen int) (itemTrack, bool) {
	if k, ok := l.itemKeyOf(id, pkLen); ok {
		return l.items.Get(k)
	}
	it, ok := l.loose[id]
	return it, ok
}

// setItem stores the track of item id.
func (l *Ledger) setItem(id string, it itemTrack) {
	if k, ok := l.itemKeyOf(id, int(it.pkLen)); ok {
		l.items.Set(k, it)
		return
	}
	l.loose[id] = it
}

// eachItem calls f with every item's KeyID and track, in no order.
func (l *Ledger) eachItem(f func(id string, it itemTrack)) {
	for k, it := range l.items.All() {
		f(l.idOf(k), it)
	}
	for id, it := range l.loose {
		f(id, it)
	}
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

// diffKey is one pattern operation's figure on one target.
type diffKey struct {
	PatternOp
	target string
}

// NewLedger returns an empty ledger of the calls on a table of schema s.
func NewLedger(s designs.Schema) *Ledger { return NewLedgerKeys(s, keytab.New()) }

// NewLedgerKeys is NewLedger keeping its key texts in names, which others
// naming the same keys may share.
func NewLedgerKeys(s designs.Schema, names *keytab.Numbering) *Ledger {
	return &Ledger{
		schema:      s.ItemSchema(),
		names:       names,
		keys:        map[slotID]*keyStats{},
		once:        spill.New[slotID, onceRow](ledgerRows),
		targets:     map[string]*targetStats{},
		patterns:    map[PatternOp]*PatternUsage{},
		diffs:       map[diffKey]*Disagreement{},
		items:       spill.New[itemKey, itemTrack](ledgerRows),
		uses:        spill.New[itemKey, itemUse](useRows),
		loose:       map[string]itemTrack{},
		collections: spill.New[uint32, collectionTrack](ledgerRows),
		indexKeys:   spill.New[slotID, collectionTrack](ledgerRows),
		named:       map[string][2]string{},
		first:       math.MaxInt64,
		last:        math.MinInt64,
	}
}

// Observe prices one call (pricing.Account), records its charges, compares them
// with DynamoDB Local's figure and follows the sizes of the items it wrote.
// It returns the charges.
func (l *Ledger) Observe(o pricing.Observation) []pricing.Charge {
	p := l.price(o)
	l.addPriced(p)
	return p.charges
}

// priced is a call priced, for the ledger to record.
type priced struct {
	o       pricing.Observation
	charges []pricing.Charge
	items   []pricing.ItemCharge
	local   map[string]float64
}

// price prices o (pricing.Account) and DynamoDB Local's figure for it,
// without recording anything.
func (l *Ledger) price(o pricing.Observation) priced {
	charges, items := pricing.AccountItems(l.schema, o)
	return priced{o: o, charges: charges, items: items, local: pricing.LocalUnits(o)}
}

// addPriced records a priced call: its charges, DynamoDB Local's figure beside
// them, and the sizes of the items it wrote.
func (l *Ledger) addPriced(c priced) {
	o := c.o
	l.mu.Lock()
	defer l.mu.Unlock()
	l.observed++
	l.record(o, c.charges)
	l.use(o.Pattern, c.items)
	if c.local != nil && o.Evaluated != pricing.EvaluatedLocal {
		l.compare(o, c.charges, c.local)
	}
	p := l.patterns[patternOpOf(o)]
	for _, w := range o.Writes {
		if !w.Failed && !ddbitem.Equal(w.Before, w.After) {
			l.follow(l.schema, w)
			p.Grown += int64(ddbitem.Size(w.After) - ddbitem.Size(w.Before))
		}
	}
}

// record adds the charges to the cells, slots, targets and pattern.
func (l *Ledger) record(o pricing.Observation, charges []pricing.Charge) {
	k := patternOpOf(o)
	p := l.patterns[k]
	if p == nil {
		p = &PatternUsage{PatternOp: k}
		l.patterns[k] = p
	}
	p.Calls++
	if o.Filtered || o.Counted {
		p.Filtered += b2i(o.Filtered)
		p.Counted += b2i(o.Counted)
		p.Returned += int64(o.Returned)
		p.Evaluated += int64(o.Scanned)
		p.LocalCharged += b2i(o.Evaluated == pricing.EvaluatedLocal)
	}
	touched := map[string]usage{}
	for _, c := range charges {
		sec := c.At.Unix()
		l.first, l.last = min(l.first, sec), max(l.last, sec)
		l.charge(l.slotID(slot{c.Target, c.Key}), o.Pattern, sec, c.RCU, c.WCU, c.Item)
		p.RCU, p.WCU = p.RCU+c.RCU, p.WCU+c.WCU
		if !o.Consistent {
			p.EventualRCU += c.RCU
		}
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
