package emulate

import (
	"encoding/json"
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
// not say what it charges: inferred). How long a request is "ongoing" AWS
// does not say: here, from the attempt the emulator lets through to its
// answer (inferred).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
// (TransactionCanceledException).

// request kinds, for conflicts.
const (
	kindOther = iota
	kindWrite
	kindBatchWrite
	kindTxWrite
	kindTxGet
)

// holds counts the write requests in flight on one item, by kind, and
// lists the TransactGetItems in flight that read it.
type holds struct {
	txWrites, writes int32
	gets             []*call
}

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

// conflicts is, for each of c's items, whether a request in flight
// conflicts with it (nil when none does). Call with e.mu held.
func (e *Emulator) conflicts(c *call) []bool {
	if e.cfg.NoConflicts || len(c.items) == 0 {
		return nil
	}
	var out []bool
	for i, id := range c.items {
		h := e.inflight[id]
		if h == nil {
			continue
		}
		var hit bool
		switch c.kind {
		case kindWrite, kindTxWrite:
			hit = h.txWrites > 0
		case kindTxGet:
			hit = h.txWrites > 0 || h.writes > 0
		}
		if hit {
			if out == nil {
				out = make([]bool, len(c.items))
			}
			out[i] = true
		}
	}
	return out
}

// hold marks c's items in flight (by = 1) or no longer (by = -1). A
// PutItem, UpdateItem, DeleteItem or TransactWriteItems marked in flight
// meets every TransactGetItems in flight on its items. Call with e.mu
// held.
func (e *Emulator) hold(c *call, by int32) {
	if e.cfg.NoConflicts {
		return
	}
	for _, id := range c.items {
		h := e.inflight[id]
		if h == nil {
			h = &holds{}
			e.inflight[id] = h
		}
		switch c.kind {
		case kindTxWrite:
			h.txWrites += by
		case kindWrite, kindBatchWrite:
			h.writes += by
		case kindTxGet:
			if by > 0 {
				h.gets = append(h.gets, c)
			} else {
				h.gets = slices.DeleteFunc(h.gets, func(g *call) bool { return g == c })
			}
		}
		if by > 0 && (c.kind == kindWrite || c.kind == kindTxWrite) {
			for _, g := range h.gets {
				g.meet(id)
			}
		}
		if h.txWrites == 0 && h.writes == 0 && len(h.gets) == 0 {
			delete(e.inflight, id)
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
		b, _ := json.Marshal(struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}{typePrefix + "TransactionConflictException", conflictMessage})
		return b
	}
	reasons := make([]wireCancellation, len(hit))
	codes := make([]string, len(hit))
	for i, h := range hit {
		reasons[i].Code = "None"
		if h {
			reasons[i] = wireCancellation{"TransactionConflict", conflictMessage}
		}
		codes[i] = reasons[i].Code
	}
	return cancelledBody(reasons, codes)
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
