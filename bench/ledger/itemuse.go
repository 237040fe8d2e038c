package ledger

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

// ItemUse is one table item's own units over the run, by the patterns
// that charged them: what one item takes, apart from the other items of
// its partition key. Its key is the ledger's (an itemKey); the partition
// key text is pkLen bytes of it.
type ItemUse struct {
	pkLen int32
	By    [itemPatterns]PatternUse
}

// PatternUse is one pattern's write units on an item, its calls that
// wrote it and, of those, the ones in a transaction.
type PatternUse struct {
	Pattern         uint32 // the pattern's id in the ledger's names, plus one; 0: unused
	Calls, TxWrites int32
	WCU             float32 // whole units: exact to millions
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
		for _, b := range u.By {
			if b.Pattern != 0 {
				row.ByPattern = append(row.ByPattern, LedgerItemWrite{Pattern: l.PatternOf(b), WCU: float64(b.WCU), Calls: int64(b.Calls), TxWrites: int64(b.TxWrites)})
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
func (u *ItemUse) add(pid uint32, wcu float64, calls, tx int64) {
	i := 0
	for i < itemPatterns-1 && u.By[i].Pattern != 0 && u.By[i].Pattern != pid {
		i++
	}
	b := &u.By[i]
	if b.Pattern == 0 {
		b.Pattern = pid
	}
	b.WCU, b.Calls, b.TxWrites = b.WCU+float32(wcu), b.Calls+int32(calls), b.TxWrites+int32(tx)
}

// EachUse calls f with every item's key texts and use, in no order.
func (l *Ledger) EachUse(f func(pk, sk string, u ItemUse)) {
	for k, u := range l.uses.All() {
		pk, sk, _ := keysFromID(l.idOf(k), int(u.pkLen))
		f(pk, sk, u)
	}
}

// PatternOf is the pattern a patternUse names.
func (l *Ledger) PatternOf(b PatternUse) designs.PatternID {
	return designs.PatternID(l.names.Text(b.Pattern - 1))
}
