package ledger

import (
	"cmp"
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
	keys        map[SlotID]*KeyStats        // keys charged in two seconds or more
	once        *spill.Map[SlotID, onceRow] // keys charged in one second only
	patternIDs  []designs.PatternID         // the patterns once rows name
	base        int64                       // the second once rows count from
	based       bool                        // base is set
	targets     map[string]*TargetStats
	patterns    map[PatternOp]*PatternUsage
	diffs       map[DiffKey]*Disagreement
	items       *spill.Map[itemKey, ItemTrack]      // by the ids of the key texts
	uses        *spill.Map[itemKey, ItemUse]        // each table item's own units, by pattern
	loose       map[string]ItemTrack                // items whose KeyID itemKey cannot rebuild
	collections *spill.Map[uint32, CollectionTrack] // by the partition key text's id
	indexKeys   *spill.Map[SlotID, CollectionTrack] // GSI partition key values, as collections
	named       map[string][2]string                // key texts of items whose id is no KeyID (merged files)
	first, last int64                               // unix seconds of the first and last charge
	observed    int64                               // observations
}

// ledgerRows is how many compact rows, items and collections each the
// ledger keeps in memory, about: those of a run's last few thousand calls.
const ledgerRows = 8192

// Second is one slot's units in one second.
type Second struct {
	Sec int64
	Usage
}

// Slot is one partition key of one target.
type Slot struct{ Target, Key string }

// SlotID is a slot by the ids of its texts in the ledger's names.
type SlotID struct{ target, key uint32 }

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

// Single reports whether every charge that named an item named one.
func (it touches) Single() bool { return !it.many && it.item != 0 }

// one is that item's KeyID when single, else "".
func (it touches) one(names *keytab.Numbering) string {
	if !it.Single() {
		return ""
	}
	return names.Text(it.item - 1)
}

// full is the row as a keyStats.
func (l *Ledger) full(r onceRow) *KeyStats {
	u := Usage{r.rcu, r.wcu}
	return &KeyStats{Usage: u, touches: r.touches, Calls: int64(r.calls), ReadCalls: int64(r.readCalls), WriteCalls: int64(r.writeCalls),
		ByPattern: []PatternWeight{{Pattern: l.patternIDs[r.pattern], Weight: r.weight}},
		Seconds:   []Second{{Sec: l.base + int64(r.sec), Usage: u}}}
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
func (l *Ledger) slotID(s Slot) SlotID { return SlotID{l.names.ID(s.Target), l.names.ID(s.Key)} }

// SlotOf is the slot of id.
func (l *Ledger) SlotOf(id SlotID) Slot { return Slot{l.names.Text(id.target), l.names.Text(id.key)} }

// stats returns the full row of id, promoting its compact row or making
// an empty one.
func (l *Ledger) stats(id SlotID) *KeyStats {
	if k := l.keys[id]; k != nil {
		return k
	}
	k := &KeyStats{}
	if r, ok := l.once.Get(id); ok {
		k = l.full(r)
		l.once.Delete(id)
	}
	l.keys[id] = k
	return k
}

// Key is s's row, nil when s was never charged; a compact row comes back
// as a full one, not kept. It changes nothing, so eachKey's f may call it.
func (l *Ledger) Key(s Slot) *KeyStats {
	t, ok1 := l.names.Lookup(s.Target)
	k, ok2 := l.names.Lookup(s.Key)
	if !ok1 || !ok2 {
		return nil
	}
	id := SlotID{t, k}
	if k := l.keys[id]; k != nil {
		return k
	}
	if r, ok := l.once.Peek(id); ok {
		return l.full(r)
	}
	return nil
}

// EachKey calls f with every charged slot and its row (compact rows made
// full for the call), in no order.
func (l *Ledger) EachKey(f func(s Slot, k *KeyStats)) {
	for id, k := range l.keys {
		f(l.SlotOf(id), k)
	}
	for id, r := range l.once.All() {
		f(l.SlotOf(id), l.full(r))
	}
}

// keyCount is the number of charged slots.
func (l *Ledger) keyCount() int { return len(l.keys) + l.once.Len() }

// charge adds one charge of pattern p at second sec to slot id.
func (l *Ledger) charge(id SlotID, p designs.PatternID, sec int64, rcu, wcu float64, item string) {
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
			r.weight += Weight(rcu, wcu)
			r.fold(l.names, item)
			l.once.Set(id, r)
			return
		}
		k = l.stats(id)
	}
	u := k.cell(sec)
	u.RCU, u.WCU = u.RCU+rcu, u.WCU+wcu
	k.RCU, k.WCU, k.Calls = k.RCU+rcu, k.WCU+wcu, k.Calls+1
	if rcu > 0 {
		k.ReadCalls++
	}
	if wcu > 0 {
		k.WriteCalls++
	}
	k.weigh(p, Weight(rcu, wcu))
	k.fold(l.names, item)
}

// Usage is a pair of read and write units.
type Usage struct{ RCU, WCU float64 }

// Add adds o's units to u's.
func (u *Usage) Add(o Usage) { u.RCU, u.WCU = u.RCU+o.RCU, u.WCU+o.WCU }

// KeyStats is one slot's run: units, the calls that touched it, the
// weighted units each pattern put on it (a few patterns: a slice) and its
// units per second, by second.
type KeyStats struct {
	Usage
	touches
	Calls                 int64
	ReadCalls, WriteCalls int64
	ByPattern             []PatternWeight
	Seconds               []Second
}

// cell returns the units of second sec, adding the second in order if
// new. Charges come in nearly in order of their second (a call is charged
// at its start, recorded at its end), so the search starts from the end.
func (k *KeyStats) cell(sec int64) *Usage {
	i := len(k.Seconds)
	for i > 0 && k.Seconds[i-1].Sec > sec {
		i--
	}
	if i > 0 && k.Seconds[i-1].Sec == sec {
		return &k.Seconds[i-1].Usage
	}
	k.Seconds = slices.Insert(k.Seconds, i, Second{Sec: sec})
	return &k.Seconds[i].Usage
}

// weigh adds w to pattern p's weight on the slot.
func (k *KeyStats) weigh(p designs.PatternID, w float64) {
	for i := range k.ByPattern {
		if k.ByPattern[i].Pattern == p {
			k.ByPattern[i].Weight += w
			return
		}
	}
	k.ByPattern = append(k.ByPattern, PatternWeight{Pattern: p, Weight: w})
}

// Weights is byPattern as a map, for the analysis.
func (k *KeyStats) Weights() map[designs.PatternID]float64 {
	m := make(map[designs.PatternID]float64, len(k.ByPattern))
	for _, w := range k.ByPattern {
		m[w.Pattern] = w.Weight
	}
	return m
}

// TargetStats counts the calls that read from or wrote to a target.
type TargetStats struct {
	Usage
	ReadCalls, WriteCalls int64
}

// ItemTrack follows one item's size: its first and latest, and its share
// of its item collection (with its LSI entries). Its key is the map's (the
// item's KeyID): the partition key text is pkLen bytes of it, after the
// type tag. Sizes fit in 32 bits: an item is at most 400 KB.
type ItemTrack struct {
	pkLen       int32
	First, Last int32
	coll        int32
	writes      int32 // successful writes the run made to the item
	Grows       int32 // of those, the ones that left it larger
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
func (l *Ledger) item(id string, pkLen int) (ItemTrack, bool) {
	if k, ok := l.itemKeyOf(id, pkLen); ok {
		return l.items.Get(k)
	}
	it, ok := l.loose[id]
	return it, ok
}

// setItem stores the track of item id.
func (l *Ledger) setItem(id string, it ItemTrack) {
	if k, ok := l.itemKeyOf(id, int(it.pkLen)); ok {
		l.items.Set(k, it)
		return
	}
	l.loose[id] = it
}

// EachItem calls f with every item's KeyID and track, in no order.
func (l *Ledger) EachItem(f func(id string, it ItemTrack)) {
	for k, it := range l.items.All() {
		f(l.idOf(k), it)
	}
	for id, it := range l.loose {
		f(id, it)
	}
}

// ItemKeys are the partition and sort key texts of item id.
func (l *Ledger) ItemKeys(id string, it ItemTrack) (pk, sk string) {
	if k, ok := l.named[id]; ok {
		return k[0], k[1]
	}
	pk, sk, _ = keysFromID(id, int(it.pkLen))
	return pk, sk
}

// CollectionTrack follows the bytes of one table partition key value (its
// map's key) the run has seen: known is the sum of the latest sizes of its
// items the run wrote, added what the run's writes added to it.
type CollectionTrack struct {
	Known, Added int
	Grows        int // writes that enlarged it
}

// DiffKey is one pattern operation's figure on one target.
type DiffKey struct {
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
		keys:        map[SlotID]*KeyStats{},
		once:        spill.New[SlotID, onceRow](ledgerRows),
		targets:     map[string]*TargetStats{},
		patterns:    map[PatternOp]*PatternUsage{},
		diffs:       map[DiffKey]*Disagreement{},
		items:       spill.New[itemKey, ItemTrack](ledgerRows),
		uses:        spill.New[itemKey, ItemUse](useRows),
		loose:       map[string]ItemTrack{},
		collections: spill.New[uint32, CollectionTrack](ledgerRows),
		indexKeys:   spill.New[SlotID, CollectionTrack](ledgerRows),
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
	touched := map[string]Usage{}
	for _, c := range charges {
		sec := c.At.Unix()
		l.first, l.last = min(l.first, sec), max(l.last, sec)
		l.charge(l.slotID(Slot{c.Target, c.Key}), o.Pattern, sec, c.RCU, c.WCU, c.Item)
		p.RCU, p.WCU = p.RCU+c.RCU, p.WCU+c.WCU
		if !o.Consistent {
			p.EventualRCU += c.RCU
		}
		t := touched[c.Target]
		touched[c.Target] = Usage{t.RCU + c.RCU, t.WCU + c.WCU}
	}
	for name, u := range touched {
		t := l.targets[name]
		if t == nil {
			t = &TargetStats{}
			l.targets[name] = t
		}
		t.RCU, t.WCU = t.RCU+u.RCU, t.WCU+u.WCU
		if u.RCU > 0 {
			t.ReadCalls++
		}
		if u.WCU > 0 {
			t.WriteCalls++
		}
	}
}

// Weight is CloudWatch Contributor Insights' ranking of a key's traffic
// (ConsumedThroughputUnits): three times its write units plus its read units.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html#contributorinsights_HowItWorks.Graphs.most-accessed
func Weight(rcu, wcu float64) float64 { return 3*wcu + rcu }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ByTarget orders the table before its indexes, then indexes by name.
func ByTarget(a, b string) int {
	if a == b {
		return 0
	}
	if a == designs.MainTable {
		return -1
	}
	if b == designs.MainTable {
		return 1
	}
	return cmp.Compare(a, b)
}
