package capacity

import (
	"cmp"
	"slices"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// itemPatterns is how many patterns an item's use keeps apart; a later
// pattern counts with the last. An item is written by few patterns.
const itemPatterns = 2

// useRows is how many items' uses the ledger keeps in memory, the rest in
// a file: the items a run keeps using are few and stay recent, and a run
// that makes an item at every call must not grow the heap by one use each.
const useRows = 64

// itemUse is one table item's own units over the run, by the patterns
// that charged them: what one item takes, apart from the other items of
// its partition key. Its key is the ledger's (an itemKey); the partition
// key text is pkLen bytes of it.
type itemUse struct {
	pkLen int32
	by    [itemPatterns]patternUse
}

// patternUse is one pattern's write units on an item, its calls that
// wrote it and, of those, the ones in a transaction.
type patternUse struct {
	pattern         uint32 // the pattern's id in the ledger's names, plus one; 0: unused
	calls, txWrites int32
	wcu             float32 // whole units: exact to millions
}

// use adds each item's own write units of one call of pattern p. Reads
// are left out: keeping every item a run reads would grow the heap with
// them, and a key read on one item is already a hot key on one item.
func (l *Ledger) use(p designs.PatternID, items []pricing.ItemCharge) {
	for _, c := range items {
		id, ok := l.schema.KeyID(c.Key)
		if !ok {
			continue
		}
		pkLen := len(ddbitem.KeyText(c.Key[l.schema.PK]))
		k, ok := l.itemKeyOf(id, pkLen)
		if !ok {
			continue
		}
		u, _ := l.uses.Get(k)
		u.pkLen = int32(pkLen)
		u.add(l.names.ID(string(p))+1, c.WCU, 1, b2i(c.TxWrite))
		l.uses.Set(k, u)
	}
}

// exportUses lists every item's use, by item id.
func (l *Ledger) exportUses() []LedgerItemUse {
	var out []LedgerItemUse
	for k, u := range l.uses.All() {
		row := LedgerItemUse{ID: l.idOf(k), PK: l.names.Text(k.pk)}
		for _, b := range u.by {
			if b.pattern != 0 {
				row.ByPattern = append(row.ByPattern, LedgerItemWrite{Pattern: l.patternOf(b), WCU: float64(b.wcu), Calls: int64(b.calls), TxWrites: int64(b.txWrites)})
			}
		}
		out = append(out, row)
	}
	slices.SortFunc(out, func(a, b LedgerItemUse) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// addUse sums a file's row into the item's use (MergeLedgers).
func (l *Ledger) addUse(row LedgerItemUse) {
	k, ok := l.itemKeyOf(row.ID, len(row.PK))
	if !ok {
		return
	}
	u, _ := l.uses.Get(k)
	u.pkLen = int32(len(row.PK))
	for _, w := range row.ByPattern {
		u.add(l.names.ID(string(w.Pattern))+1, w.WCU, w.Calls, w.TxWrites)
	}
	l.uses.Set(k, u)
}

// add counts calls of the pattern numbered pid that wrote wcu units, tx of
// them in transactions.
func (u *itemUse) add(pid uint32, wcu float64, calls, tx int64) {
	i := 0
	for i < itemPatterns-1 && u.by[i].pattern != 0 && u.by[i].pattern != pid {
		i++
	}
	b := &u.by[i]
	if b.pattern == 0 {
		b.pattern = pid
	}
	b.wcu, b.calls, b.txWrites = b.wcu+float32(wcu), b.calls+int32(calls), b.txWrites+int32(tx)
}

// eachUse calls f with every item's key texts and use, in no order.
func (l *Ledger) eachUse(f func(pk, sk string, u itemUse)) {
	for k, u := range l.uses.All() {
		pk, sk, _ := keysFromID(l.idOf(k), int(u.pkLen))
		f(pk, sk, u)
	}
}

// patternOf is the pattern a patternUse names.
func (l *Ledger) patternOf(b patternUse) designs.PatternID {
	return designs.PatternID(l.names.Text(b.pattern - 1))
}
