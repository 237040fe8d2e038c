package emulate

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// call is one request through the SDK, across its attempts: the partitions
// it touches, per action for a batch or a transaction.
type call struct {
	pattern designs.PatternID
	touches []touch   // every partition it touches
	groups  [][]touch // per batch item or transaction action; nil otherwise
	tx      bool      // a transaction: a refusal cancels it
	whole   bool      // a batch every item of which was refused: refused while all are
	decided bool      // a batch already split: its attempts are let through
	kind    int       // kindWrite, kindTxWrite...: which requests it conflicts with
	items   []string  // the items it writes (per action, for a transaction), or a TransactGetItems reads

	attempts    int
	last        *refusal      // the refusal of the latest attempt, nil if let through
	conflicted  bool          // the latest attempt was refused for a transaction conflict
	resent      bool          // ended refused for a conflict, and the design sends it again (designs.ResentOnConflict)
	refusedAt   int64         // when the latest attempt was refused, Unix nanoseconds; 0: it was not
	met         []bool        // a TransactGetItems's items a write met while it was in flight
	held        []reservation // units held while the call is in flight
	unprocessed int
}

// throttled reports whether the call ended refused by the emulator.
func (c *call) throttled() bool { return c.last != nil }

// cancelled reports whether the call was a transaction cancelled for
// throttling (which the SDK does not retry).
func (c *call) cancelled() bool { return c.tx && c.throttled() }

// conflictCancelled reports whether the call was a transaction cancelled
// for a transaction conflict.
func (c *call) conflictCancelled() bool { return c.tx && c.conflicted }

// givenUp reports whether the call ended refused for a transaction
// conflict and its design does not send it again: it is denied
// (its demand not served).
func (c *call) givenUp() bool { return c.conflicted && !c.resent }

// newCall is the call params make, or nil when it reads and writes no item.
func (e *Emulator) newCall(ctx context.Context, params any) *call {
	c := &call{pattern: designs.PatternOf(ctx)}
	switch p := params.(type) {
	case *dynamodb.GetItemInput:
		c.touches = e.reads(nil, aws.ToString(p.TableName), designs.MainTable, p.Key)
	case *dynamodb.PutItemInput:
		c.touches = e.writes(nil, aws.ToString(p.TableName), p.Item, p.Item)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Item)}
	case *dynamodb.UpdateItemInput:
		c.touches = e.writes(nil, aws.ToString(p.TableName), p.Key, nil)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Key)}
	case *dynamodb.DeleteItemInput:
		c.touches = e.writes(nil, aws.ToString(p.TableName), p.Key, nil)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Key)}
	case *dynamodb.QueryInput:
		target := designs.MainTable
		if p.IndexName != nil {
			target = *p.IndexName
		}
		v, _ := ddbitem.PartitionValue(aws.ToString(p.KeyConditionExpression), p.ExpressionAttributeNames, p.ExpressionAttributeValues, e.item.PartitionKey(target))
		c.touches = []touch{{table: aws.ToString(p.TableName), target: target, key: ddbitem.KeyText(v), side: read}}
	case *dynamodb.ScanInput:
		target := designs.MainTable
		if p.IndexName != nil {
			target = *p.IndexName
		}
		c.touches = []touch{{table: aws.ToString(p.TableName), target: target, side: read}}
	case *dynamodb.BatchGetItemInput:
		for _, table := range tables(p.RequestItems) {
			for _, k := range p.RequestItems[table].Keys {
				c.group(e.reads(nil, table, designs.MainTable, k))
			}
		}
	case *dynamodb.BatchWriteItemInput:
		c.kind = kindBatchWrite
		for _, table := range tables(p.RequestItems) {
			c.items = e.writeItems(table, p.RequestItems[table], c.items)
			for _, w := range p.RequestItems[table] {
				switch {
				case w.PutRequest != nil:
					c.group(e.writes(nil, table, w.PutRequest.Item, w.PutRequest.Item))
				case w.DeleteRequest != nil:
					c.group(e.writes(nil, table, w.DeleteRequest.Key, nil))
				}
			}
		}
	case *dynamodb.TransactGetItemsInput:
		c.tx, c.kind = true, kindTxGet
		for _, g := range p.TransactItems {
			if g.Get != nil {
				c.group(e.reads(nil, aws.ToString(g.Get.TableName), designs.MainTable, g.Get.Key))
				c.items = append(c.items, e.itemID(aws.ToString(g.Get.TableName), g.Get.Key))
			}
		}
	case *dynamodb.TransactWriteItemsInput:
		c.tx, c.kind = true, kindTxWrite
		for _, w := range p.TransactItems {
			c.group(e.txWrite(w))
			c.items = append(c.items, e.txWriteItem(w))
		}
	default:
		return nil
	}
	if c.groups != nil {
		c.touches = distinct(c.touches)
	}
	if len(c.touches) == 0 {
		return nil
	}
	return c
}

// tables lists a batch's tables in one order, the same for newCall and
// split: Go ranges over a map in a different order each time.
func tables[V any](items map[string]V) []string { return slices.Sorted(maps.Keys(items)) }

// group adds one batch item's or action's touches; newCall then keeps
// each touch once (distinct).
func (c *call) group(ts []touch) {
	c.groups = append(c.groups, ts)
	c.touches = append(c.touches, ts...)
}

// distinct is ts with each touch once, in place: a call holds its
// estimate on a key once however many of its items the key holds (the
// estimate is what a whole call consumed there), and counts once among the
// calls denied on that key.
func distinct(ts []touch) []touch {
	if len(ts) < 2 {
		return ts
	}
	seen := make(map[touch]struct{}, len(ts))
	out := ts[:0]
	for _, t := range ts {
		if _, ok := seen[t]; !ok {
			seen[t] = struct{}{}
			out = append(out, t)
		}
	}
	return out
}

// txWrite is the touches of one TransactWriteItems action: a
// ConditionCheck is charged as a write.
func (e *Emulator) txWrite(w types.TransactWriteItem) []touch {
	switch {
	case w.Put != nil:
		return e.writes(nil, aws.ToString(w.Put.TableName), w.Put.Item, w.Put.Item)
	case w.Update != nil:
		return e.writes(nil, aws.ToString(w.Update.TableName), w.Update.Key, nil)
	case w.Delete != nil:
		return e.writes(nil, aws.ToString(w.Delete.TableName), w.Delete.Key, nil)
	case w.ConditionCheck != nil:
		return e.writes(nil, aws.ToString(w.ConditionCheck.TableName), w.ConditionCheck.Key, nil)
	}
	return nil
}

// reads is a read of the item at key.
func (e *Emulator) reads(ts []touch, table, target string, key ddbitem.Item) []touch {
	return append(ts, touch{table: table, target: target, key: ddbitem.KeyText(key[e.item.PK]), side: read})
}

// writes is a write of the item at key: its table partition, and the GSI
// partitions of the item it writes (put) and of the item it replaces, as
// far as the emulator knows them (Lookup).
func (e *Emulator) writes(ts []touch, table string, key, put ddbitem.Item) []touch {
	ts = append(ts, touch{table: table, target: designs.MainTable, key: ddbitem.KeyText(key[e.item.PK]), side: write})
	var old ddbitem.Item
	if f := e.lookup.Load(); f != nil && len(e.schema.GSIs) > 0 {
		old = (*f)(table, e.item.Key(key))
	}
	for _, ix := range e.schema.GSIs {
		for _, img := range [2]ddbitem.Item{put, old} {
			if v := ddbitem.KeyText(img[ix.PK]); v != "" && !has(ts, ix.Name, v) {
				ts = append(ts, touch{table: table, target: ix.Name, key: v, side: write})
			}
		}
	}
	return ts
}

func has(ts []touch, target, key string) bool {
	for _, t := range ts {
		if t.target == target && t.key == key {
			return true
		}
	}
	return false
}
