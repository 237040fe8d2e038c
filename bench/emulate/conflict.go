package emulate

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Transaction conflicts, as DynamoDB has them and DynamoDB Local, which
// runs one request at a time, does not:
//   - a PutItem, UpdateItem or DeleteItem of an item an ongoing
//     TransactWriteItems includes fails with TransactionConflictException;
//   - a TransactWriteItems with an item another ongoing TransactWriteItems
//     includes is cancelled, reason TransactionConflict for that action;
//   - a TransactGetItems with an item an ongoing TransactWriteItems,
//     BatchWriteItem, PutItem, UpdateItem or DeleteItem writes is cancelled
//     the same way.
//
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html
// (transaction conflict handling). A PutItem, UpdateItem, DeleteItem or
// TransactWriteItems that meets an ongoing TransactGetItems goes through,
// and the TransactGetItems fails: the API reference's
// TransactionCanceledException says so. Here its answer from DynamoDB
// Local is replaced by that cancellation, TransactionConflict for the
// items a write met; like any failed read it is charged nothing (AWS does
// not say what it charges: inferred).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
// (TransactionCanceledException).
//
// How long a request is "ongoing" AWS does not say. Every kind above is
// ongoing while the service works on it, so each holds its items from the
// attempt the emulator lets through until its answer or until its
// pattern's hold on real DynamoDB has passed on the emulator's clock,
// whichever comes first: the capacity model's figure (Config.Holds,
// rules.DefaultTransactionHold, a TransactWriteItems's measured time
// on the service), never the test bed's time in flight, which grows with
// the machine's load. The same measurement puts a PutItem at 7.55 ms and
// a BatchWriteItem of 25 items at 10.2 ms: a single write held for a
// transaction's time errs toward cancelling TransactGetItems (inferred).
// Source: https://github.com/alexdebrie/dynamodb-performance-testing/tree/master/put-batch-transaction-performance
// (results table, p50 from AWS Lambda in the table's Region)

// request kinds, for conflicts.
const (
	kindOther = iota
	kindWrite
	kindBatchWrite
	kindTxWrite
	kindTxGet
)

// itemID names an item for conflicts: its table and primary key ("" with
// conflicts off, which follows no item).
func (e *Emulator) itemID(table string, key ddbitem.Item) string {
	if e.cfg.NoConflicts {
		return ""
	}
	id := table + "\x00" + ddbitem.KeyText(key[e.item.PK])
	if e.item.SK != "" {
		id += "\x00" + ddbitem.KeyText(key[e.item.SK])
	}
	return id
}

// itemName is an item's key as the report shows it: "pk" or "pk / sk".
func itemName(id string) string {
	_, key, _ := strings.Cut(id, "\x00")
	return strings.ReplaceAll(key, "\x00", " / ")
}

// blocks reports whether h, in flight on an item, conflicts at now with a
// request of kind k on it: only while h's hold lasts.
func blocks(k int, h *call, now int64) bool {
	if now >= h.until {
		return false
	}
	switch k {
	case kindWrite, kindTxWrite:
		return h.kind == kindTxWrite
	case kindTxGet:
		return h.kind == kindTxWrite || h.kind == kindWrite || h.kind == kindBatchWrite
	}
	return false
}

// conflicts is, for each of c's items, whether a request in flight
// conflicts with it at now (nil when none does). Call with e.mu held.
func (e *Emulator) conflicts(c *call, now int64) []bool {
	if e.cfg.NoConflicts || len(c.items) == 0 {
		return nil
	}
	var out []bool
	for i, id := range c.items {
		for _, h := range e.inflight[id] {
			if blocks(c.kind, h, now) {
				if out == nil {
					out = make([]bool, len(c.items))
				}
				out[i] = true
				break
			}
		}
	}
	return out
}

// hold marks c's items in flight from now, for its pattern's hold at
// most. A PutItem, UpdateItem, DeleteItem or TransactWriteItems meets
// every TransactGetItems whose hold on its items lasts. Call with e.mu
// held.
func (e *Emulator) hold(c *call, now int64) {
	if e.cfg.NoConflicts || len(c.items) == 0 {
		return
	}
	d, _ := e.cfg.Holds.Of(c.pattern)
	c.until = now + int64(d)
	for _, id := range c.items {
		held := e.inflight[id]
		if c.kind == kindWrite || c.kind == kindTxWrite {
			for _, g := range held {
				if g.kind == kindTxGet && now < g.until {
					g.meet(id)
				}
			}
		}
		e.inflight[id] = append(held, c)
	}
}

// release ends c's flight on its items, its answer come. Call with e.mu
// held.
func (e *Emulator) release(c *call) {
	if e.cfg.NoConflicts {
		return
	}
	for _, id := range c.items {
		held := slices.DeleteFunc(e.inflight[id], func(h *call) bool { return h == c })
		if len(held) == 0 {
			delete(e.inflight, id)
		} else {
			e.inflight[id] = held
		}
	}
}

// meet notes that a write met the TransactGetItems c on item id.
func (c *call) meet(id string) {
	if c.met == nil {
		c.met = make([]bool, len(c.items))
	}
	for i, it := range c.items {
		if it == id {
			c.met[i] = true
		}
	}
}

// conflictMessage is DynamoDB's text with a conflict.
// Source: the SDK's response snapshot of TransactionConflictException
// (service/dynamodb in aws-sdk-go-v2) has none; this one is AWS's error
// reference wording, inferred.
const conflictMessage = "Transaction is ongoing for the item"

// conflictBody is DynamoDB's answer to a request that conflicts: for a
// transaction, a cancellation with TransactionConflict for the actions in
// conflict and None for the others; for a single-item write,
// TransactionConflictException.
func conflictBody(c *call, hit []bool) []byte {
	if c.kind == kindWrite {
		return ConflictBody()
	}
	codes := make([]string, len(hit))
	for i, h := range hit {
		codes[i] = "None"
		if h {
			codes[i] = "TransactionConflict"
		}
	}
	return Cancelled(codes)
}

// writeItems names the items of a BatchWriteItem's requests, in newCall's
// order.
func (e *Emulator) writeItems(table string, ws []types.WriteRequest, items []string) []string {
	for _, w := range ws {
		switch {
		case w.PutRequest != nil:
			items = append(items, e.itemID(table, w.PutRequest.Item))
		case w.DeleteRequest != nil:
			items = append(items, e.itemID(table, w.DeleteRequest.Key))
		}
	}
	return items
}

// txWriteItem names the item of one TransactWriteItems action.
func (e *Emulator) txWriteItem(w types.TransactWriteItem) string {
	switch {
	case w.Put != nil:
		return e.itemID(aws.ToString(w.Put.TableName), w.Put.Item)
	case w.Update != nil:
		return e.itemID(aws.ToString(w.Update.TableName), w.Update.Key)
	case w.Delete != nil:
		return e.itemID(aws.ToString(w.Delete.TableName), w.Delete.Key)
	case w.ConditionCheck != nil:
		return e.itemID(aws.ToString(w.ConditionCheck.TableName), w.ConditionCheck.Key)
	}
	return ""
}
