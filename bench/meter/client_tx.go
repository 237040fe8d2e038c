package bench

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// TransactGetItems reads items in one transaction: one observation per
// table, transactional and consistent. It asks for TOTAL capacity, the only
// detail the call accepts.
// Source: https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/Package/-aws-sdk-client-dynamodb/Interface/TransactGetItemsCommandInput
func (c *Client) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	start := time.Now()
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
			c.shadow.learn(table, item, true, start)
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
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// txAction is one action of a TransactWriteItems, reduced to what the
// shadow needs.
type txAction struct {
	table string
	key   capacity.Image
	put   capacity.Image // Put: the new item
	del   bool           // Delete
	check bool           // ConditionCheck
	// Update:
	update        *string
	names         map[string]string
	values        map[string]types.AttributeValue
	cond          bool // the action has a condition
	askedFailures bool // the pattern asked for the old image on failure
}

func (c *Client) txActions(items []types.TransactWriteItem) []txAction {
	acts := make([]txAction, len(items))
	for i, it := range items {
		a := &acts[i]
		switch {
		case it.Put != nil:
			a.table, a.put, a.key = aws.ToString(it.Put.TableName), it.Put.Item, c.keyOf(it.Put.Item)
			a.cond = it.Put.ConditionExpression != nil
			a.askedFailures = it.Put.ReturnValuesOnConditionCheckFailure == types.ReturnValuesOnConditionCheckFailureAllOld
		case it.Update != nil:
			a.table, a.key = aws.ToString(it.Update.TableName), it.Update.Key
			a.update, a.names, a.values = it.Update.UpdateExpression, it.Update.ExpressionAttributeNames, it.Update.ExpressionAttributeValues
			a.cond = it.Update.ConditionExpression != nil
			a.askedFailures = it.Update.ReturnValuesOnConditionCheckFailure == types.ReturnValuesOnConditionCheckFailureAllOld
		case it.Delete != nil:
			a.table, a.key, a.del = aws.ToString(it.Delete.TableName), it.Delete.Key, true
			a.cond = it.Delete.ConditionExpression != nil
			a.askedFailures = it.Delete.ReturnValuesOnConditionCheckFailure == types.ReturnValuesOnConditionCheckFailureAllOld
		case it.ConditionCheck != nil:
			a.table, a.key, a.check, a.cond = aws.ToString(it.ConditionCheck.TableName), it.ConditionCheck.Key, true, true
			a.askedFailures = it.ConditionCheck.ReturnValuesOnConditionCheckFailure == types.ReturnValuesOnConditionCheckFailureAllOld
		}
	}
	return acts
}

// TransactWriteItems writes items in one transaction. None of its actions
// returns values on success, so every image comes from the shadow: a Put's
// after image is its item, an Update's is its expression applied to the
// shadow's image, a Delete leaves none, a ConditionCheck changes nothing. A
// cancelled transaction writes nothing, yet DynamoDB charges each action:
// each becomes a failed write of the item as it stands, which the
// cancellation returns for the actions whose condition failed.
func (c *Client) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	acts := c.txActions(in.TransactItems)
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.TransactItems = askTxFailureImages(in.TransactItems, acts)
	start := time.Now()
	out, err := c.db.TransactWriteItems(ctx, &req, opts...)
	var writes []capacity.Write
	var cc []types.ConsumedCapacity
	switch {
	case err == nil:
		writes, cc = c.txApplied(ctx, acts, start, opts), out.ConsumedCapacity
	default:
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			return out, err
		}
		writes = c.txCancelled(ctx, acts, tce, start, opts)
	}
	if observe := c.observer(); observe != nil {
		c.observeTx(ctx, start, observe, acts, writes, cc)
	}
	if err != nil {
		return out, err
	}
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// askTxFailureImages asks every conditional action for the old image on
// failure; it copies the actions only when one did not ask already, so the
// pattern's own request stays as it built it.
func askTxFailureImages(items []types.TransactWriteItem, acts []txAction) []types.TransactWriteItem {
	if !slices.ContainsFunc(acts, func(a txAction) bool { return a.cond && !a.askedFailures }) {
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
// writes, in action order. A transaction returns no item images, so the
// shadow chains them; where another call on the same item finished while
// this one was in flight, the order is unknown and the item is read back.
func (c *Client) txApplied(ctx context.Context, acts []txAction, start time.Time, opts []func(*dynamodb.Options)) []capacity.Write {
	writes := make([]capacity.Write, len(acts))
	var unsure []txAction
	for i, a := range acts {
		if c.shadow.overlapped(a.table, a.key, start) {
			unsure = append(unsure, a)
		}
		w := &writes[i]
		w.Key = a.key
		switch {
		case a.put != nil:
			w.After = a.put
			w.Before = c.shadow.swap(a.table, a.key, a.put)
		case a.update != nil:
			w.Before, w.After = c.shadow.apply(a.table, a.key, func(old capacity.Image) capacity.Image {
				return c.updated(old, a.key, *a.update, a.names, a.values)
			})
		case a.del:
			w.Before = c.shadow.swap(a.table, a.key, nil)
		default: // ConditionCheck
			w.Before = c.shadow.get(a.table, a.key)
			w.After = w.Before
		}
	}
	c.readBack(ctx, unsure, opts)
	return writes
}

// readBack resyncs the shadow with the table for items whose order against
// concurrent calls is unknown: one consistent GetItem each, not observed.
func (c *Client) readBack(ctx context.Context, acts []txAction, opts []func(*dynamodb.Options)) {
	for _, a := range acts {
		start := time.Now()
		out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(a.table), Key: a.key, ConsistentRead: aws.Bool(true)}, opts...)
		if err == nil {
			c.shadow.resync(a.table, a.key, out.Item, start)
		}
	}
}

// txCancelled returns the failed writes of a cancelled transaction, and
// takes out of the cancellation the images the pattern did not ask for.
func (c *Client) txCancelled(ctx context.Context, acts []txAction, tce *types.TransactionCanceledException, start time.Time, opts []func(*dynamodb.Options)) []capacity.Write {
	writes := make([]capacity.Write, len(acts))
	var unsure []txAction
	for i, a := range acts {
		var img capacity.Image
		if i < len(tce.CancellationReasons) && aws.ToString(tce.CancellationReasons[i].Code) == "ConditionalCheckFailed" {
			r := &tce.CancellationReasons[i]
			img = nilIfEmpty(r.Item)
			if c.shadow.overlapped(a.table, a.key, start) {
				unsure = append(unsure, a)
			} else {
				c.shadow.swap(a.table, a.key, img)
			}
			if !a.askedFailures {
				r.Item = nil
			}
		} else {
			img = c.shadow.get(a.table, a.key)
		}
		writes[i] = capacity.Write{Before: img, After: img, Failed: true, Key: a.key}
	}
	c.readBack(ctx, unsure, opts)
	return writes
}

// observeTx sends one observation per table the transaction wrote.
func (c *Client) observeTx(ctx context.Context, start time.Time, observe Observer, acts []txAction, writes []capacity.Write, cc []types.ConsumedCapacity) {
	var tables []string
	for _, a := range acts {
		if !slices.Contains(tables, a.table) {
			tables = append(tables, a.table)
		}
	}
	for _, t := range tables {
		o := observation(ctx, start, designs.TransactWriteItems, t)
		o.Transactional, o.Consistent, o.Local = true, true, tableCapacity(cc, t)
		for i, a := range acts {
			if a.table == t {
				o.Writes = append(o.Writes, writes[i])
			}
		}
		observe(o)
	}
}
