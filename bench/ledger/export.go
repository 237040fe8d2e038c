package ledger

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/spill"
	"github.com/ddbharness/ddbharness/pricing"
)

// LedgerFormat versions LedgerFile: a change that an older MergeLedgers
// would read wrongly gets a new number.
const LedgerFormat = "ddbharness-ledger/1"

// LedgerFile is a Ledger written out, for several load machines (shards)
// that each made part of one run's calls on one shared table: MergeLedgers
// sums their files into the ledger one machine making every call would
// have kept. It holds everything Analyze reads but the schema, which the
// reader passes. Maps are lists of rows in a fixed order (targets table
// first, then by name; keys, items and collections by their strings), so
// one ledger always writes the same file.
//
// First and Last are the Unix seconds of the first and last charge; both
// are 0, and meaningless, when Keys is empty (no charge).
type LedgerFile struct {
	Format   string `json:"format"` // LedgerFormat
	First    int64  `json:"first_second"`
	Last     int64  `json:"last_second"`
	Observed int64  `json:"observed_calls"`
	// Targets are the units per table or index, and the calls that read
	// from or wrote to it.
	Targets []LedgerTarget `json:"targets"`
	// Keys are the partition key values each target's charges landed on,
	// with their units per second.
	Keys     []LedgerKey    `json:"keys"`
	Patterns []PatternUsage `json:"patterns"`
	// Disagreements holds every pattern operation and target compared with
	// DynamoDB Local's figure, agreeing (Differing 0) or not.
	Disagreements []Disagreement `json:"disagreements"`
	// Items and Collections are the sizes of the items the run wrote and
	// of their table partition key values; IndexKeys those of the GSI
	// partition key values the writes touched.
	Items       []LedgerItem       `json:"items"`
	Collections []LedgerCollection `json:"collections"`
	IndexKeys   []LedgerCollection `json:"index_keys"`
	// ItemUses are the write units each pattern put on each table item
	// (absent from files written before they were kept).
	ItemUses []LedgerItemUse `json:"item_uses,omitempty"`
}

// LedgerItemUse is one table item (ID, its KeyID; PK, its partition key
// text) and what each pattern's calls wrote to it: units, calls, and the
// calls that were transactions.
type LedgerItemUse struct {
	ID        string            `json:"id"`
	PK        string            `json:"pk"`
	ByPattern []LedgerItemWrite `json:"by_pattern"`
}

// LedgerItemWrite is one pattern's writes of one item.
type LedgerItemWrite struct {
	Pattern  designs.PatternID `json:"pattern"`
	WCU      float64           `json:"wcu"`
	Calls    int64             `json:"calls"`
	TxWrites int64             `json:"tx_writes,omitempty"`
}

// LedgerTarget is one table or index's units over the run, and how many
// calls read from (ReadCalls) and wrote to (WriteCalls) it.
type LedgerTarget struct {
	Target     string  `json:"target"`
	RCU        float64 `json:"rcu"`
	WCU        float64 `json:"wcu"`
	ReadCalls  int64   `json:"read_calls"`
	WriteCalls int64   `json:"write_calls"`
}

// LedgerKey is one partition key value of one target: its units over the
// run, the charges that landed on it (Calls; ReadCalls and WriteCalls
// those with read or write units), the Contributor Insights weight each
// pattern put on it, and its units in each second it was charged.
type LedgerKey struct {
	Target     string          `json:"target"`
	Key        string          `json:"key"`
	RCU        float64         `json:"rcu"`
	WCU        float64         `json:"wcu"`
	Calls      int64           `json:"calls"`
	ReadCalls  int64           `json:"read_calls"`
	WriteCalls int64           `json:"write_calls"`
	ByPattern  []PatternWeight `json:"by_pattern"`
	Seconds    []LedgerSecond  `json:"seconds"`
	// Item is the KeyID of the one item every charge on the key touched;
	// ManyItems says the charges touched more than one.
	Item      string `json:"item,omitempty"`
	ManyItems bool   `json:"many_items,omitempty"`
}

// PatternWeight is the weight (3 × WCU + RCU) one pattern put on a key.
type PatternWeight struct {
	Pattern designs.PatternID `json:"pattern"`
	Weight  float64           `json:"weight"`
}

// LedgerSecond is a key's units in one second (Unix seconds).
type LedgerSecond struct {
	Second int64   `json:"second"`
	RCU    float64 `json:"rcu"`
	WCU    float64 `json:"wcu"`
}

// LedgerItem is one item the run wrote (ID is its key, typed, as
// ddbitem.Schema.KeyID gives it): its size before the run's first write
// and after its latest, its share of its item collection, the successful
// writes the run made to it and how many of those enlarged it.
type LedgerItem struct {
	ID         string `json:"id"`
	PK         string `json:"pk"`
	SK         string `json:"sk,omitempty"`
	First      int    `json:"first_bytes"`
	Last       int    `json:"last_bytes"`
	Collection int    `json:"collection_bytes"`
	Writes     int    `json:"writes"`
	Grows      int    `json:"grows"`
}

// LedgerCollection is one table partition key value (an item collection)
// or, with Index set, one GSI partition key value: the bytes of its items
// the run knows, the bytes the run's writes added (negative: removed),
// and the writes that enlarged it.
type LedgerCollection struct {
	Index string `json:"index,omitempty"`
	PK    string `json:"pk"`
	Known int    `json:"known_bytes"`
	Added int    `json:"added_bytes"`
	Grows int    `json:"grows"`
}

// Export writes the ledger out (see LedgerFile).
func (l *Ledger) Export() LedgerFile {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := LedgerFile{Format: LedgerFormat, Observed: l.observed}
	if l.keyCount() > 0 {
		f.First, f.Last = l.first, l.last
	}
	for name, t := range l.targets {
		f.Targets = append(f.Targets, LedgerTarget{Target: name, RCU: t.RCU, WCU: t.WCU, ReadCalls: t.ReadCalls, WriteCalls: t.WriteCalls})
	}
	slices.SortFunc(f.Targets, func(a, b LedgerTarget) int { return ByTarget(a.Target, b.Target) })

	l.EachKey(func(s Slot, k *KeyStats) {
		row := LedgerKey{Target: s.Target, Key: s.Key, RCU: k.RCU, WCU: k.WCU, Calls: k.Calls,
			ReadCalls: k.ReadCalls, WriteCalls: k.WriteCalls, Item: k.one(l.names), ManyItems: k.many}
		for _, u := range k.Seconds { // in order of second
			row.Seconds = append(row.Seconds, LedgerSecond{Second: u.Sec, RCU: u.RCU, WCU: u.WCU})
		}
		row.ByPattern = slices.SortedFunc(slices.Values(k.ByPattern), func(a, b PatternWeight) int { return cmp.Compare(a.Pattern, b.Pattern) })
		f.Keys = append(f.Keys, row)
	})
	slices.SortFunc(f.Keys, func(a, b LedgerKey) int { return cmp.Or(ByTarget(a.Target, b.Target), cmp.Compare(a.Key, b.Key)) })

	for _, p := range l.patterns {
		f.Patterns = append(f.Patterns, *p)
	}
	slices.SortFunc(f.Patterns, func(a, b PatternUsage) int { return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op)) })
	for _, d := range l.diffs {
		f.Disagreements = append(f.Disagreements, *d)
	}
	slices.SortFunc(f.Disagreements, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op), ByTarget(a.Target, b.Target))
	})

	l.EachItem(func(id string, it ItemTrack) {
		pk, sk := l.ItemKeys(id, it)
		f.Items = append(f.Items, LedgerItem{ID: id, PK: pk, SK: sk, First: int(it.First), Last: int(it.Last),
			Collection: int(it.coll), Writes: int(it.writes), Grows: int(it.Grows)})
	})
	slices.SortFunc(f.Items, func(a, b LedgerItem) int { return cmp.Compare(a.ID, b.ID) })
	for pk, c := range l.collections.All() {
		f.Collections = append(f.Collections, LedgerCollection{PK: l.names.Text(pk), Known: c.Known, Added: c.Added, Grows: c.Grows})
	}
	for id, c := range l.indexKeys.All() {
		at := l.SlotOf(id)
		f.IndexKeys = append(f.IndexKeys, LedgerCollection{Index: at.Target, PK: at.Key, Known: c.Known, Added: c.Added, Grows: c.Grows})
	}
	byCollection := func(a, b LedgerCollection) int { return cmp.Or(cmp.Compare(a.Index, b.Index), cmp.Compare(a.PK, b.PK)) }
	slices.SortFunc(f.Collections, byCollection)
	slices.SortFunc(f.IndexKeys, byCollection)
	f.ItemUses = l.exportUses()
	return f
}

// MergeLedgers builds the ledger of a table of schema s that holds what
// the files (Export) hold together: the ledger one machine would have kept
// had it made all the calls of the shards that wrote them. Units, calls and
// weights are summed per target, key, second and pattern; the run spans
// from the earliest first second to the latest last. A disagreement's
// example is the first file's that has one. One file gives back the ledger
// that wrote it.
//
// The sizes of items and collections are approximate when several files
// name the same one: each shard follows only the writes it made, each from
// what its own earlier writes left, while the shards wrote one table.
//   - An item keeps the first file's first size; its latest size and its
//     share of its collection are the largest of the files' (the one
//     written last is not known, and for an item that grows, the latest is
//     the largest); its writes and enlarging writes are summed.
//   - A collection or GSI key's known bytes are the largest of the files':
//     each shard counts every item it wrote, those other shards wrote too
//     included, so a sum would count shared items twice, while the largest
//     is a lower bound, as Growth.Bytes already is. The bytes added and
//     the enlarging writes are summed: each shard's writes added their
//     own, though a write to an item another shard changed since this
//     shard's previous write also counts that change.
//
// A file of another Format is refused (designs.ErrInvalidInput).
func MergeLedgers(s designs.Schema, files ...LedgerFile) (*Ledger, error) {
	for i, f := range files {
		if f.Format != LedgerFormat {
			return nil, fmt.Errorf("ledger %d of %d: %w: format %q, this ddbharness reads %q", i+1, len(files), designs.ErrInvalidInput, f.Format, LedgerFormat)
		}
	}
	l := NewLedger(s)
	for _, f := range files {
		l.add(f)
	}
	return l, nil
}

// add sums one file into l (see MergeLedgers).
func (l *Ledger) add(f LedgerFile) {
	l.observed += f.Observed
	if len(f.Keys) > 0 {
		l.first, l.last = min(l.first, f.First), max(l.last, f.Last)
	}
	for _, row := range f.Targets {
		t := l.targets[row.Target]
		if t == nil {
			t = &TargetStats{}
			l.targets[row.Target] = t
		}
		t.RCU, t.WCU = t.RCU+row.RCU, t.WCU+row.WCU
		t.ReadCalls, t.WriteCalls = t.ReadCalls+row.ReadCalls, t.WriteCalls+row.WriteCalls
	}
	for _, row := range f.Keys {
		k := l.stats(l.slotID(Slot{row.Target, row.Key}))
		k.RCU, k.WCU, k.Calls = k.RCU+row.RCU, k.WCU+row.WCU, k.Calls+row.Calls
		k.ReadCalls, k.WriteCalls = k.ReadCalls+row.ReadCalls, k.WriteCalls+row.WriteCalls
		k.fold(l.names, row.Item)
		if row.ManyItems {
			k.fold(l.names, pricing.ManyItems)
		}
		for _, w := range row.ByPattern {
			k.weigh(w.Pattern, w.Weight)
		}
		for _, sec := range row.Seconds {
			u := k.cell(sec.Second)
			u.RCU, u.WCU = u.RCU+sec.RCU, u.WCU+sec.WCU
		}
	}
	for _, row := range f.Patterns {
		k := row.PatternOp
		p := l.patterns[k]
		if p == nil {
			p = &PatternUsage{PatternOp: k}
			l.patterns[k] = p
		}
		p.Calls += row.Calls
		p.RCU, p.WCU = p.RCU+row.RCU, p.WCU+row.WCU
		p.EventualRCU += row.EventualRCU
		p.Local, p.LocalCalls = p.Local+row.Local, p.LocalCalls+row.LocalCalls
		p.Filtered, p.Counted = p.Filtered+row.Filtered, p.Counted+row.Counted
		p.Evaluated, p.Returned = p.Evaluated+row.Evaluated, p.Returned+row.Returned
		p.LocalCharged += row.LocalCharged
		p.Grown += row.Grown
	}
	for _, row := range f.Disagreements {
		k := DiffKey{row.PatternOp, row.Target}
		d := l.diffs[k]
		if d == nil {
			d = &Disagreement{PatternOp: row.PatternOp, Target: row.Target}
			l.diffs[k] = d
		}
		if d.Differing == 0 && row.Differing > 0 {
			d.ExampleUnits, d.ExampleLocal = row.ExampleUnits, row.ExampleLocal
		}
		d.Calls, d.Differing = d.Calls+row.Calls, d.Differing+row.Differing
		d.Units, d.LocalUnits = d.Units+row.Units, d.LocalUnits+row.LocalUnits
	}
	for _, row := range f.Items {
		it, ok := l.item(row.ID, len(row.PK))
		if !ok {
			if pk, sk, ok := keysFromID(row.ID, len(row.PK)); !ok || pk != row.PK || sk != row.SK {
				l.named[row.ID] = [2]string{row.PK, row.SK}
			}
			l.setItem(row.ID, ItemTrack{pkLen: int32(len(row.PK)), First: int32(row.First), Last: int32(row.Last),
				coll: int32(row.Collection), writes: int32(row.Writes), Grows: int32(row.Grows)})
			continue
		}
		it.Last, it.coll = max(it.Last, int32(row.Last)), max(it.coll, int32(row.Collection))
		it.writes, it.Grows = it.writes+int32(row.Writes), it.Grows+int32(row.Grows)
		l.setItem(row.ID, it)
	}
	for _, row := range f.Collections {
		mergeTrack(l.collections, l.names.ID(row.PK), row)
	}
	for _, row := range f.IndexKeys {
		mergeTrack(l.indexKeys, l.slotID(Slot{row.Index, row.PK}), row)
	}
	for _, row := range f.ItemUses {
		l.addUse(row)
	}
}

// mergeTrack adds a file's row to the collection or GSI key track k:
// known bytes by maximum, the rest summed (see MergeLedgers).
func mergeTrack[K comparable](tracks *spill.Map[K, CollectionTrack], k K, row LedgerCollection) {
	c, ok := tracks.Get(k)
	if !ok {
		tracks.Set(k, CollectionTrack{Known: row.Known, Added: row.Added, Grows: row.Grows})
		return
	}
	c.Known = max(c.Known, row.Known)
	c.Added, c.Grows = c.Added+row.Added, c.Grows+row.Grows
	tracks.Set(k, c)
}
