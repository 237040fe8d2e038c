package meter

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Asking for return values costs no capacity, for writes and for failed
// conditions alike, which is what lets the client ask for old images.
// Sources: https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-update-item-request/return-values.html
// https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-put-item-request/return-values.html
// https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-delete-item-request/return-values-on-condition-check-failure.html

// GetItem reads one item; a miss still charges a read of its partition.
func (c *Client) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.GetItem(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	table, consistent := aws.ToString(in.TableName), aws.ToBool(in.ConsistentRead)
	whole := in.ProjectionExpression == nil
	if whole {
		c.shadow.read(table, in.Key, nilIfEmpty(out.Item), consistent, sent)
	}
	if observe := c.observer(); observe != nil {
		o := observation(ctx, start, designs.GetItem, table)
		o.Consistent, o.Local = consistent, local(out.ConsumedCapacity)
		if len(out.Item) > 0 {
			o.Reads = []ddbitem.Item{c.readImage(table, "", in.Key, out.Item, !whole)}
		} else {
			o.Misses, o.Addressed = 1, []ddbitem.Item{in.Key}
		}
		observe(o)
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// PutItem writes a whole item; the old image comes back with ALL_OLD.
func (c *Client) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.ReturnValues = types.ReturnValueAllOld
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
	c.wrote(ctx, start, designs.PutItem, table, out.ConsumedCapacity, capacity.Write{Before: before, After: in.Item, Key: key})
	if in.ReturnValues != types.ReturnValueAllOld {
		out.Attributes = nil
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// DeleteItem removes an item; the old image comes back with ALL_OLD.
func (c *Client) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.ReturnValues = types.ReturnValueAllOld
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
	c.wrote(ctx, start, designs.DeleteItem, table, out.ConsumedCapacity, capacity.Write{Before: before, Key: in.Key})
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
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	computes := asked == "" || asked == types.ReturnValueNone || asked == types.ReturnValueAllOld
	if asked == types.ReturnValueAllNew {
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
	cw := capacity.Write{Key: in.Key}
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
// whether the client asked (and must take the image out again).
func askFailureImage(rv *types.ReturnValuesOnConditionCheckFailure, cond *string) bool {
	if cond == nil || *rv == types.ReturnValuesOnConditionCheckFailureAllOld {
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
	c.wrote(ctx, start, op, table, nil, capacity.Write{Before: old, After: old, Failed: true, Key: key, Attempted: attempted(w, old)})
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
func (c *Client) wrote(ctx context.Context, start time.Time, op designs.Operation, table string, cc *types.ConsumedCapacity, w capacity.Write) {
	observe := c.observer()
	if observe == nil {
		return
	}
	o := observation(ctx, start, op, table)
	o.Writes, o.Local = []capacity.Write{w}, local(cc)
	observe(o)
}
