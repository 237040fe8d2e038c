package meter

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// TransactGetItems reads items in one transaction: one observation per
// table, transactional and consistent. It asks for TOTAL capacity, the only
// detail the call accepts.
// Source: https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/Package/-aws-sdk-client-dynamodb/Interface/TransactGetItemsCommandInput
func (c *Client) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.TransactGetItems(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	observe := c.observer()
	byTable := map[string]*capacity.Observation{}
	var tables []string
	for i, g := range in.TransactItems {
		if g.Get == nil || i >= len(out.Responses) {
			continue
		}
		table, whole := aws.ToString(g.Get.TableName), g.Get.ProjectionExpression == nil
		item := out.Responses[i].Item
		if whole {
			c.shadow.read(table, g.Get.Key, nilIfEmpty(item), true, sent)
		}
		if observe == nil {
			continue
		}
		o := byTable[table]
		if o == nil {
			ob := observation(ctx, start, designs.TransactGetItems, table)
			ob.Consistent, ob.Transactional = true, true
			ob.Local = tableCapacity(out.ConsumedCapacity, table)
			o, byTable[table] = &ob, &ob
			tables = append(tables, table)
		}
		if len(item) > 0 {
			o.Reads = append(o.Reads, c.readImage(table, "", g.Get.Key, item, !whole))
		} else {
			o.Misses++
			o.Addressed = append(o.Addressed, g.Get.Key)
		}
	}
	for _, t := range tables {
		observe(*byTable[t])
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// TransactWriteItems writes items in one transaction. None of its actions
// returns values on success, so every old image comes from the shadow: a
// Put's new image is its item, an Update's its expression applied to the
// old image, a Delete leaves none, a ConditionCheck changes nothing. A
// cancelled transaction writes nothing, yet DynamoDB charges each action:
// each becomes a failed write of the item as it stands, which the
// cancellation returns for the actions whose condition failed.
func (c *Client) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	ws := c.schema.TransactWrites(in.TransactItems)
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.TransactItems = askTxFailureImages(in.TransactItems, ws)
	for _, w := range ws {
		c.shadow.begin(w.Table, w.Key)
	}
	start := c.clock()
	out, err := c.db.TransactWriteItems(ctx, &req, opts...)
	var writes []capacity.Write
	var cc []types.ConsumedCapacity
	var tce *types.TransactionCanceledException
	switch {
	case err == nil:
		writes, cc = c.txApplied(ws), out.ConsumedCapacity
	case designs.IsTransactionConflict(err):
		c.refusedForConflict(ws)
		return out, err
	case errors.As(err, &tce) && !designs.CancelledForCapacity(err):
		writes = c.txCancelled(ws, tce)
	default:
		for _, w := range ws {
			c.shadow.lost(w.Table, w.Key)
		}
		return out, err
	}
	if observe := c.observer(); observe != nil {
		c.observeTx(ctx, start, observe, ws, writes, cc)
	}
	if err != nil {
		return out, err
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// askTxFailureImages asks every conditional action for the old image on
// failure; it copies the actions only when one did not ask already, so the
// pattern's own request stays as it built it.
func askTxFailureImages(items []types.TransactWriteItem, ws []ddbitem.Write) []types.TransactWriteItem {
	if !slices.ContainsFunc(ws, func(w ddbitem.Write) bool { return w.Condition != nil && !w.OldOnFailure }) {
		return items
	}
	out := slices.Clone(items)
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld
	for i := range out {
		switch it := &out[i]; {
		case it.Put != nil && it.Put.ConditionExpression != nil:
			p := *it.Put
			p.ReturnValuesOnConditionCheckFailure, it.Put = allOld, &p
		case it.Update != nil && it.Update.ConditionExpression != nil:
			u := *it.Update
			u.ReturnValuesOnConditionCheckFailure, it.Update = allOld, &u
		case it.Delete != nil && it.Delete.ConditionExpression != nil:
			d := *it.Delete
			d.ReturnValuesOnConditionCheckFailure, it.Delete = allOld, &d
		case it.ConditionCheck != nil:
			k := *it.ConditionCheck
			k.ReturnValuesOnConditionCheckFailure, it.ConditionCheck = allOld, &k
		}
	}
	return out
}

// txApplied moves the shadow past a committed transaction and returns its
// writes, in action order: a transaction returns no images, so each old
// image is the shadow's.
func (c *Client) txApplied(ws []ddbitem.Write) []capacity.Write {
	writes := make([]capacity.Write, len(ws))
	for i, w := range ws {
		before, after, exact := c.shadow.assumed(w.Table, w.Key, c.apply(w))
		c.countUnsure(exact)
		writes[i] = capacity.Write{Before: before, After: after, Key: w.Key}
	}
	return writes
}

// txCancelled returns the failed writes of a cancelled transaction, and
// takes out of the cancellation the images the pattern did not ask for.
func (c *Client) txCancelled(ws []ddbitem.Write, tce *types.TransactionCanceledException) []capacity.Write {
	writes := make([]capacity.Write, len(ws))
	for i, w := range ws {
		var img ddbitem.Item
		if i < len(tce.CancellationReasons) && aws.ToString(tce.CancellationReasons[i].Code) == "ConditionalCheckFailed" {
			r := &tce.CancellationReasons[i]
			img = nilIfEmpty(r.Item)
			c.shadow.saw(w.Table, w.Key, img)
			if !w.OldOnFailure {
				r.Item = nil
			}
		} else {
			var exact bool
			img, _, exact = c.shadow.assumed(w.Table, w.Key, unchanged)
			c.countUnsure(exact)
		}
		writes[i] = capacity.Write{Before: img, After: img, Failed: true, Key: w.Key, Attempted: attempted(w, img)}
	}
	return writes
}

// refusedForConflict records writes DynamoDB refused for a transaction
// conflict: refused before they ran, they left their items as they were
// and are charged nothing (inferred: AWS states no charge for them).
func (c *Client) refusedForConflict(ws []ddbitem.Write) {
	for _, w := range ws {
		_, _, exact := c.shadow.assumed(w.Table, w.Key, unchanged)
		c.countUnsure(exact)
	}
}

// unchanged is a write that left its item as it was.
func unchanged(before ddbitem.Item) (ddbitem.Item, bool) { return before, true }

// observeTx sends one observation per table the transaction wrote.
func (c *Client) observeTx(ctx context.Context, start time.Time, observe Observer, ws []ddbitem.Write, writes []capacity.Write, cc []types.ConsumedCapacity) {
	var tables []string
	for _, w := range ws {
		if !slices.Contains(tables, w.Table) {
			tables = append(tables, w.Table)
		}
	}
	for _, t := range tables {
		o := observation(ctx, start, designs.TransactWriteItems, t)
		o.Transactional, o.Consistent, o.Local = true, true, tableCapacity(cc, t)
		for i, w := range ws {
			if w.Table == t {
				o.Writes = append(o.Writes, writes[i])
			}
		}
		observe(o)
	}
}
