package meter

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// Asking for return values costs no capacity, for writes and for failed
// conditions alike, which is what lets the client ask for old images.
// Sources: https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-update-item-request/return-values.html
// https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-put-item-request/return-values.html
// https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-delete-item-request/return-values-on-condition-check-failure.html

// PutItem writes a whole item; the old image comes back with ALL_OLD.
func (c *Client) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	req.ReturnValues = askOld(in.ReturnValues)
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	table, key := aws.ToString(in.TableName), c.schema.Key(in.Item)
	c.shadow.begin(table, key)
	start := c.clock()
	out, err := c.db.PutItem(ctx, &req, opts...)
	if err != nil {
		c.failed(ctx, start, designs.PutItem, table, key, err, failOld, ddbitem.Write{Put: in.Item})
		return out, err
	}
	before := nilIfEmpty(out.Attributes)
	c.shadow.known(table, key, before, in.Item)
	c.wrote(ctx, start, designs.PutItem, table, out.ConsumedCapacity, pricing.Write{Before: before, After: in.Item, Key: key})
	if in.ReturnValues != types.ReturnValueAllOld {
		out.Attributes = nil
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// DeleteItem removes an item; the old image comes back with ALL_OLD.
func (c *Client) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	req.ReturnValues = askOld(in.ReturnValues)
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	table := aws.ToString(in.TableName)
	c.shadow.begin(table, in.Key)
	start := c.clock()
	out, err := c.db.DeleteItem(ctx, &req, opts...)
	if err != nil {
		c.failed(ctx, start, designs.DeleteItem, table, in.Key, err, failOld, ddbitem.Write{Delete: true})
		return out, err
	}
	before := nilIfEmpty(out.Attributes)
	c.shadow.known(table, in.Key, before, nil)
	c.wrote(ctx, start, designs.DeleteItem, table, out.ConsumedCapacity, pricing.Write{Before: before, Key: in.Key})
	if in.ReturnValues != types.ReturnValueAllOld {
		out.Attributes = nil
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// UpdateItem changes an item. Asked for nothing or for ALL_OLD, and for
// ALL_NEW when the client can apply the update expression (tried on the
// shadow's image first), the client asks DynamoDB for the old image and
// applies the expression to it; a pattern that asked for ALL_NEW gets that
// new image. Otherwise (UPDATED_*, or an expression the client does not
// read) DynamoDB answers as the pattern asked and the old image is the
// shadow's.
func (c *Client) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	w := ddbitem.UpdateWrite(in)
	table, asked := w.Table, in.ReturnValues
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	computes := asked == "" || asked == types.ReturnValueNone || asked == types.ReturnValueAllOld
	if asked == types.ReturnValueAllNew && !c.verbatim {
		_, err := w.After(c.shadow.get(table, in.Key))
		computes = err == nil
	}
	if computes {
		req.ReturnValues = types.ReturnValueAllOld
	}
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	c.shadow.begin(table, in.Key)
	start := c.clock()
	out, err := c.db.UpdateItem(ctx, &req, opts...)
	if err != nil {
		c.failed(ctx, start, designs.UpdateItem, table, in.Key, err, failOld, w)
		return out, err
	}
	cw := pricing.Write{Key: in.Key}
	switch {
	case computes:
		cw.Before = nilIfEmpty(out.Attributes)
		after, err := w.After(cw.Before)
		if err != nil {
			// DynamoDB applied what the client could not: the item is
			// unknown until the shadow reads it back.
			c.approx.Add(1)
			c.unsure.Add(1)
			c.shadow.lost(table, in.Key)
			if asked == types.ReturnValueAllNew {
				return out, fmt.Errorf("meter: UpdateItem on %s succeeded, but its new image cannot be computed for ALL_NEW: %w", table, err)
			}
			after = cw.Before
		} else {
			c.shadow.known(table, in.Key, cw.Before, after)
		}
		cw.After = after
		if asked == types.ReturnValueAllNew {
			out.Attributes = maps.Clone(after)
		}
	case asked == types.ReturnValueAllNew:
		now := nilIfEmpty(out.Attributes)
		var exact bool
		cw.Before, cw.After, exact = c.shadow.assumed(table, in.Key, func(ddbitem.Item) (ddbitem.Item, bool) { return now, true })
		c.countUnsure(exact)
	default:
		var exact bool
		cw.Before, cw.After, exact = c.shadow.assumed(table, in.Key, c.apply(w))
		c.countUnsure(exact)
	}
	c.wrote(ctx, start, designs.UpdateItem, table, out.ConsumedCapacity, cw)
	if asked == "" || asked == types.ReturnValueNone {
		out.Attributes = nil
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
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	req.TransactItems = askTxFailureImages(in.TransactItems, ws)
	for _, w := range ws {
		c.shadow.begin(w.Table, w.Key)
	}
	start := c.clock()
	out, err := c.db.TransactWriteItems(ctx, &req, opts...)
	var writes []pricing.Write
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

// BatchWriteItem puts and deletes items of one or more tables, without
// conditions and without return values: the old images come from the
// shadow. Requests DynamoDB left unprocessed wrote nothing.
func (c *Client) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	ws := c.schema.BatchWrites(in.RequestItems)
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	for _, w := range ws {
		c.shadow.begin(w.Table, w.Key)
	}
	start := c.clock()
	out, err := c.db.BatchWriteItem(ctx, &req, opts...)
	if err != nil {
		for _, w := range ws {
			c.shadow.lost(w.Table, w.Key)
		}
		return out, err
	}
	skip := c.unprocessed(out.UnprocessedItems)
	byTable := map[string][]pricing.Write{}
	for _, w := range ws {
		if skip != nil { // usually nothing comes back: no ID to make
			if id, _ := c.shadow.id(w.Table, w.Key); skip[id] {
				c.shadow.assumed(w.Table, w.Key, unchanged)
				continue
			}
		}
		before, after, exact := c.shadow.assumed(w.Table, w.Key, c.apply(w))
		c.countUnsure(exact)
		byTable[w.Table] = append(byTable[w.Table], pricing.Write{Before: before, After: after, Key: w.Key})
	}
	if observe := c.observer(); observe != nil {
		for _, table := range slices.Sorted(maps.Keys(byTable)) {
			o := observation(ctx, start, designs.BatchWriteItem, table)
			o.Writes, o.Local = byTable[table], tableCapacity(out.ConsumedCapacity, table)
			observe(ctx, o)
		}
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// apply is w's after image as the shadow assumes it; a write the client
// cannot compute is counted.
func (c *Client) apply(w ddbitem.Write) func(ddbitem.Item) (ddbitem.Item, bool) {
	return func(before ddbitem.Item) (ddbitem.Item, bool) {
		after, err := w.After(before)
		if err != nil {
			c.approx.Add(1)
			return before, false
		}
		return nilIfEmpty(after), true
	}
}

// countUnsure counts a write accounted from an image that was not exact.
func (c *Client) countUnsure(exact bool) {
	if !exact {
		c.unsure.Add(1)
	}
}

// askFailureImage asks for the item as it was when a condition fails, if
// the write has a condition and the pattern did not ask already; it reports
// whether the client asked (and must take the image out again). A value
// DynamoDB refuses goes as the pattern sent it.
func askFailureImage(rv *types.ReturnValuesOnConditionCheckFailure, cond *string) bool {
	if cond == nil || !askedNoImage(*rv) {
		return false
	}
	*rv = types.ReturnValuesOnConditionCheckFailureAllOld
	return true
}

// failed handles a single-item write w that failed. One whose condition
// failed wrote nothing and still costs a write, sized on the item as it
// stands (which the failure returned) or the item w would have written,
// whichever is larger; one refused for a transaction conflict wrote
// nothing; any other failure may or may not have been applied,
// so the shadow no longer vouches for the item.
func (c *Client) failed(ctx context.Context, start time.Time, op designs.Operation, table string, key ddbitem.Item, err error, asked bool, w ddbitem.Write) {
	var ccf *types.ConditionalCheckFailedException
	switch {
	case designs.IsTransactionConflict(err):
		c.refusedForConflict([]ddbitem.Write{{Table: table, Key: key}})
		return
	case !errors.As(err, &ccf):
		c.shadow.lost(table, key)
		return
	}
	old := nilIfEmpty(ccf.Item)
	c.shadow.saw(table, key, old)
	if asked {
		ccf.Item = nil
	}
	c.wrote(ctx, start, op, table, nil, pricing.Write{Before: old, After: old, Failed: true, Key: key, Attempted: attempted(w, old)})
}

// attempted is the item w would have written over old, had its condition
// held: nil for a delete, old for a ConditionCheck or an update the client
// cannot compute.
func attempted(w ddbitem.Write, old ddbitem.Item) ddbitem.Item {
	after, err := w.After(old)
	if err != nil {
		return old
	}
	return nilIfEmpty(after)
}

// wrote sends the observation of a single-item write.
func (c *Client) wrote(ctx context.Context, start time.Time, op designs.Operation, table string, cc *types.ConsumedCapacity, w pricing.Write) {
	observe := c.observer()
	if observe == nil {
		return
	}
	o := observation(ctx, start, op, table)
	o.Writes, o.Local = []pricing.Write{w}, local(cc)
	observe(ctx, o)
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
		case it.Put != nil && it.Put.ConditionExpression != nil && askedNoImage(it.Put.ReturnValuesOnConditionCheckFailure):
			p := *it.Put
			p.ReturnValuesOnConditionCheckFailure, it.Put = allOld, &p
		case it.Update != nil && it.Update.ConditionExpression != nil && askedNoImage(it.Update.ReturnValuesOnConditionCheckFailure):
			u := *it.Update
			u.ReturnValuesOnConditionCheckFailure, it.Update = allOld, &u
		case it.Delete != nil && it.Delete.ConditionExpression != nil && askedNoImage(it.Delete.ReturnValuesOnConditionCheckFailure):
			d := *it.Delete
			d.ReturnValuesOnConditionCheckFailure, it.Delete = allOld, &d
		case it.ConditionCheck != nil && askedNoImage(it.ConditionCheck.ReturnValuesOnConditionCheckFailure):
			k := *it.ConditionCheck
			k.ReturnValuesOnConditionCheckFailure, it.ConditionCheck = allOld, &k
		}
	}
	return out
}

// askedNoImage reports whether rv asks for no image on a failed
// condition, so that the client may ask for one and take it out again.
func askedNoImage(rv types.ReturnValuesOnConditionCheckFailure) bool {
	return rv == "" || rv == types.ReturnValuesOnConditionCheckFailureNone
}

// txApplied moves the shadow past a committed transaction and returns its
// writes, in action order: a transaction returns no images, so each old
// image is the shadow's.
func (c *Client) txApplied(ws []ddbitem.Write) []pricing.Write {
	writes := make([]pricing.Write, len(ws))
	for i, w := range ws {
		before, after, exact := c.shadow.assumed(w.Table, w.Key, c.apply(w))
		c.countUnsure(exact)
		writes[i] = pricing.Write{Before: before, After: after, Key: w.Key}
	}
	return writes
}

// txCancelled returns the failed writes of a cancelled transaction, and
// takes out of the cancellation the images the pattern did not ask for.
func (c *Client) txCancelled(ws []ddbitem.Write, tce *types.TransactionCanceledException) []pricing.Write {
	writes := make([]pricing.Write, len(ws))
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
		writes[i] = pricing.Write{Before: img, After: img, Failed: true, Key: w.Key, Attempted: attempted(w, img)}
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
func (c *Client) observeTx(ctx context.Context, start time.Time, observe Observer, ws []ddbitem.Write, writes []pricing.Write, cc []types.ConsumedCapacity) {
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
		observe(ctx, o)
	}
}

// unprocessed names the requests DynamoDB sent back, by shadow id.
func (c *Client) unprocessed(reqs map[string][]types.WriteRequest) map[string]bool {
	if len(reqs) == 0 {
		return nil
	}
	skip := map[string]bool{}
	for _, w := range c.schema.BatchWrites(reqs) {
		if id, ok := c.shadow.id(w.Table, w.Key); ok {
			skip[id] = true
		}
	}
	return skip
}
