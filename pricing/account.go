package pricing

import (
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Charge is capacity real DynamoDB would consume for one call on one
// partition: the base table (designs.MainTable) or a secondary index, the
// partition key value there, and the second the call started.
type Charge struct {
	At      time.Time // the call's start, truncated to the second
	Pattern designs.PatternID
	Target  string // designs.MainTable or an index name
	Key     string // partition key value as text; "" when unknown
	RCU     float64
	WCU     float64
	// Item is the key (ddbitem.Schema.KeyID) of the one item the charge
	// read or wrote under Key, on the table or an index; ManyItems when it
	// was several (a Query of a collection); "" when unknown.
	Item string
}

// ManyItems is a Charge.Item of several items.
const ManyItems = "\x00many"

// Unit sizes and multipliers.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
const (
	readUnitBytes  = ddbitem.ReadUnitBytes
	writeUnitBytes = ddbitem.WriteUnitBytes
	eventualFactor = 0.5 // an eventually consistent read costs half
	txFactor       = 2   // a transactional read or write costs double (prepare and commit)
)

// Transactions charge the table twice per item (prepare and commit), even
// when cancelled; a ConditionCheck is charged as a transactional write of the
// item it read; index writes inside a transaction cost what they cost outside.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling
// (two underlying operations per item, consumed even when the transaction
// fails); the ConditionCheck and index arms are measured against DynamoDB in
// https://github.com/paritysuite/dynamodb-conformance/pull/67 and
// https://github.com/nubo-db/dynoxide/pull/188.

// Account returns the capacity real DynamoDB would charge for one observed
// call, by AWS's rules, attributed to the table and index partitions it
// touched. Charges on the same target and key are merged; the result is
// empty for an operation this package does not know.
func Account(s ddbitem.Schema, o Observation) []Charge {
	charges, _ := AccountItems(s, o)
	return charges
}

// ItemCharge is what one table item a call wrote took of its charges on
// its partition key: its own write units, as Account prices them, and
// whether the call wrote it in a transaction, which holds the item while
// it runs.
type ItemCharge struct {
	Key     ddbitem.Item // an image holding the item's table key
	WCU     float64
	TxWrite bool
}

// AccountItems is Account, and each written item's own part of the
// charges, in the order the call wrote them.
func AccountItems(s ddbitem.Schema, o Observation) ([]Charge, []ItemCharge) {
	a := accountant{s: s, o: o, at: o.At.Truncate(time.Second)}
	switch o.Op {
	case designs.GetItem, designs.BatchGetItem, designs.TransactGetItems:
		a.itemReads()
	case designs.Query, designs.Scan:
		a.rangeRead()
	case designs.PutItem, designs.UpdateItem, designs.DeleteItem, designs.BatchWriteItem, designs.TransactWriteItems:
		for _, w := range o.Writes {
			a.write(w)
		}
	}
	for i, c := range a.out {
		a.out[i].Item = a.items[[2]string{c.Target, c.Key}]
	}
	return a.out, a.perItem
}

// accountant gathers the charges of one observation.
type accountant struct {
	s   ddbitem.Schema
	o   Observation
	at  time.Time
	out []Charge
	// items is the item each (target, key) charged touched, or ManyItems;
	// made at the first item.
	items map[[2]string]string
	// perItem is each table item's own units.
	perItem []ItemCharge
}

// touched notes that the charge on (target, key) read or wrote item, an
// image holding the table's key attributes (an index entry does).
func (a *accountant) touched(target, key string, item ddbitem.Item) {
	at := [2]string{target, key}
	was, seen := a.items[at]
	if was == ManyItems { // a Query's further items change nothing
		return
	}
	id, ok := a.s.KeyID(item)
	if !ok {
		return
	}
	if seen && was != id {
		id = ManyItems
	}
	if a.items == nil {
		a.items = map[[2]string]string{}
	}
	a.items[at] = id
}

// charge adds units on (target, key), merging with an earlier charge there.
func (a *accountant) charge(target, key string, rcu, wcu float64) {
	for i := range a.out {
		if a.out[i].Target == target && a.out[i].Key == key {
			a.out[i].RCU += rcu
			a.out[i].WCU += wcu
			return
		}
	}
	a.out = append(a.out, Charge{At: a.at, Pattern: a.o.Pattern, Target: target, Key: key, RCU: rcu, WCU: wcu})
}

// transactional reports whether the call is a transaction.
func (a *accountant) transactional() bool {
	return a.o.Transactional || a.o.Op == designs.TransactGetItems || a.o.Op == designs.TransactWriteItems
}

// readFactor is the read units per 4 KB: 2 in a transaction, 1 strongly
// consistent, 0.5 eventually consistent. GSIs only serve eventually
// consistent reads.
func (a *accountant) readFactor(gsi bool) float64 {
	switch {
	case a.transactional():
		return txFactor
	case a.o.Consistent && !gsi:
		return 1
	}
	return eventualFactor
}

// units rounds size up to whole units of unit bytes, never below one: a
// read or write of nothing still costs the minimum.
func units(size, unit int) float64 {
	return float64(max(1, (size+unit-1)/unit))
}
