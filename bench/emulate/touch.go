package emulate

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

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
	until       int64         // when its latest attempt's hold on its items ends, Unix nanoseconds
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
		c.touches = e.readTouches(nil, aws.ToString(p.TableName), p.Key, consistent(p.ConsistentRead), false)
	case *dynamodb.PutItemInput:
		c.touches = e.writeTouches(nil, e.item.PutWrite(p), false)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Item)}
	case *dynamodb.UpdateItemInput:
		c.touches = e.writeTouches(nil, ddbitem.UpdateWrite(p), false)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Key)}
	case *dynamodb.DeleteItemInput:
		c.touches = e.writeTouches(nil, ddbitem.DeleteWrite(p), false)
		c.kind, c.items = kindWrite, []string{e.itemID(aws.ToString(p.TableName), p.Key)}
	case *dynamodb.QueryInput:
		target := designs.MainTable
		if p.IndexName != nil {
			target = *p.IndexName
		}
		part, _ := e.item.QueryPartition(target, ddbitem.Condition{Expr: aws.ToString(p.KeyConditionExpression), Names: p.ExpressionAttributeNames, Values: p.ExpressionAttributeValues})
		c.touches = []touch{{table: aws.ToString(p.TableName), target: target, key: ddbitem.PartitionText(e.item.PartitionAttrs(target), part), side: read}}
	case *dynamodb.ScanInput:
		target := designs.MainTable
		if p.IndexName != nil {
			target = *p.IndexName
		}
		c.touches = []touch{{table: aws.ToString(p.TableName), target: target, side: read}}
	case *dynamodb.BatchGetItemInput:
		for _, table := range tables(p.RequestItems) {
			ka := p.RequestItems[table]
			for _, k := range ka.Keys {
				c.group(e.readTouches(nil, table, k, consistent(ka.ConsistentRead), false))
			}
		}
	case *dynamodb.BatchWriteItemInput:
		c.kind = kindBatchWrite
		for _, table := range tables(p.RequestItems) {
			c.items = e.writeItems(table, p.RequestItems[table], c.items)
		}
		// BatchWrites keeps newCall's order: table by table by name, each
		// table's requests in order.
		for _, w := range e.item.BatchWrites(p.RequestItems) {
			c.group(e.writeTouches(nil, w, false))
		}
	case *dynamodb.TransactGetItemsInput:
		c.tx, c.kind = true, kindTxGet
		for _, g := range p.TransactItems {
			if g.Get != nil {
				c.group(e.readTouches(nil, aws.ToString(g.Get.TableName), g.Get.Key, true, true))
				c.items = append(c.items, e.itemID(aws.ToString(g.Get.TableName), g.Get.Key))
			}
		}
	case *dynamodb.TransactWriteItemsInput:
		c.tx, c.kind = true, kindTxWrite
		for i, w := range e.item.TransactWrites(p.TransactItems) {
			c.group(e.writeTouches(nil, w, true))
			c.items = append(c.items, e.txWriteItem(p.TransactItems[i]))
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

// distinct is ts with each touch once, in place, its units summed over
// the items that touch it: a call holds what it would consume on a key (or
// the estimate, what a whole call consumed there) once however many of its
// items the key holds, and counts once among the calls denied on that key.
func distinct(ts []touch) []touch {
	if len(ts) < 2 {
		return ts
	}
	seen := make(map[touch]int, len(ts))
	out := ts[:0]
	for _, t := range ts {
		units := t.units
		t.units = 0
		if i, ok := seen[t]; ok {
			out[i].units += units
			continue
		}
		seen[t] = len(out)
		t.units = units
		out = append(out, t)
	}
	return out
}

// writes is the older rule for a write whose new image is unknown: its
// table partition, and the GSI partitions of the item it puts and of old,
// the item it replaces as far as the caller knows it (lookupIn).
func (e *Emulator) writes(ts []touch, table string, key, put, old ddbitem.Item) []touch {
	ts = append(ts, touch{table: table, target: designs.MainTable, key: ddbitem.KeyText(key[e.item.PK]), side: write})
	for _, ix := range e.schema.GSIs {
		for _, img := range [2]ddbitem.Item{put, old} {
			if v := ddbitem.PartitionText(ix.PartitionAttrs(), img); v != "" && !has(ts, ix.Name, v) {
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
