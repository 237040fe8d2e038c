package bench

import (
	"context"
	"errors"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ddbexpr"
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
	start := time.Now()
	out, err := c.db.GetItem(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	table, consistent := aws.ToString(in.TableName), aws.ToBool(in.ConsistentRead)
	whole := in.ProjectionExpression == nil
	if whole {
		c.shadow.learn(table, out.Item, consistent, start)
	}
	if observe := c.observer(); observe != nil {
		o := observation(ctx, start, designs.GetItem, table)
		o.Consistent, o.Local = consistent, local(out.ConsumedCapacity)
		if len(out.Item) > 0 {
			o.Reads = []capacity.Image{c.readImage(table, "", in.Key, out.Item, !whole)}
		} else {
			o.Misses, o.Addressed = 1, []capacity.Image{in.Key}
		}
		observe(o)
	}
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// PutItem writes a whole item; the old image comes back with ALL_OLD.
func (c *Client) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.ReturnValues = types.ReturnValueAllOld
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	start := time.Now()
	out, err := c.db.PutItem(ctx, &req, opts...)
	table, key := aws.ToString(in.TableName), c.keyOf(in.Item)
	if err != nil {
		c.conditionFailed(ctx, start, designs.PutItem, table, key, err, failOld)
		return out, err
	}
	c.shadow.record(table, key, out.Attributes, in.Item, start)
	c.wrote(ctx, start, designs.PutItem, table, out.ConsumedCapacity,
		capacity.Write{Before: nilIfEmpty(out.Attributes), After: in.Item, Key: key})
	if in.ReturnValues != types.ReturnValueAllOld {
		out.Attributes = nil
	}
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// DeleteItem removes an item; the old image comes back with ALL_OLD.
func (c *Client) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	req.ReturnValues = types.ReturnValueAllOld
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	start := time.Now()
	out, err := c.db.DeleteItem(ctx, &req, opts...)
	table := aws.ToString(in.TableName)
	if err != nil {
		c.conditionFailed(ctx, start, designs.DeleteItem, table, in.Key, err, failOld)
		return out, err
	}
	c.shadow.record(table, in.Key, out.Attributes, nil, start)
	c.wrote(ctx, start, designs.DeleteItem, table, out.ConsumedCapacity,
		capacity.Write{Before: nilIfEmpty(out.Attributes), Key: in.Key})
	if in.ReturnValues != types.ReturnValueAllOld {
		out.Attributes = nil
	}
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// UpdateItem changes an item. Asked for nothing, for ALL_OLD or for
// ALL_NEW, the client asks DynamoDB for the old image and applies the update
// expression to it; the pattern that asked for ALL_NEW gets that new image.
// The old image must come from DynamoDB: the shadow's image of the item
// misses a concurrent write whose response the client has yet to handle. Asked
// for UPDATED_*, the client has both images from its shadow.
func (c *Client) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	asked := in.ReturnValues
	if asked == "" || asked == types.ReturnValueNone || asked == types.ReturnValueAllNew {
		req.ReturnValues = types.ReturnValueAllOld
	}
	failOld := askFailureImage(&req.ReturnValuesOnConditionCheckFailure, req.ConditionExpression)
	start := time.Now()
	out, err := c.db.UpdateItem(ctx, &req, opts...)
	table := aws.ToString(in.TableName)
	if err != nil {
		c.conditionFailed(ctx, start, designs.UpdateItem, table, in.Key, err, failOld)
		return out, err
	}
	change := func(old capacity.Image) capacity.Image {
		return c.updated(old, in.Key, aws.ToString(in.UpdateExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	}
	var w capacity.Write
	switch {
	case asked == types.ReturnValueAllNew:
		w.Before = nilIfEmpty(out.Attributes)
		if w.After, err = c.newImage(ctx, in, w.Before, opts); err != nil {
			return out, err
		}
		out.Attributes = maps.Clone(w.After)
		c.shadow.record(table, in.Key, w.Before, w.After, start)
	case req.ReturnValues == types.ReturnValueAllOld:
		w.Before = nilIfEmpty(out.Attributes)
		w.After = change(w.Before)
		c.shadow.record(table, in.Key, w.Before, w.After, start)
	default:
		w.Before, w.After = c.shadow.apply(table, in.Key, change)
	}
	w.Key = in.Key
	c.wrote(ctx, start, designs.UpdateItem, table, out.ConsumedCapacity, w)
	if asked == "" || asked == types.ReturnValueNone {
		out.Attributes = nil
	}
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// newImage is the item an update the pattern asked ALL_NEW of left: the
// expression applied to the old image DynamoDB returned. Should the client
// fail to apply an expression DynamoDB applied, it reads the item back
// (strongly consistent, unobserved) for the pattern, and counts an
// approximation; it returns that read's error, if any.
func (c *Client) newImage(ctx context.Context, in *dynamodb.UpdateItemInput, old capacity.Image, opts []func(*dynamodb.Options)) (capacity.Image, error) {
	after, err := ddbexpr.ApplyUpdate(old, in.Key, aws.ToString(in.UpdateExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err == nil {
		return after, nil
	}
	c.approx.Add(1)
	got, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: in.TableName, Key: in.Key, ConsistentRead: aws.Bool(true)}, opts...)
	if err != nil {
		return nil, err
	}
	return nilIfEmpty(got.Item), nil
}

// updated applies an update expression; one the client cannot read leaves
// the item as it was, and is counted.
func (c *Client) updated(old, key capacity.Image, expr string, names map[string]string, values map[string]types.AttributeValue) capacity.Image {
	after, err := ddbexpr.ApplyUpdate(old, key, expr, names, values)
	if err != nil {
		c.approx.Add(1)
		if old == nil {
			return key
		}
		return old
	}
	return after
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

// conditionFailed observes a single-item write whose condition failed: it
// wrote nothing and still costs a write of the item as it stands, which the
// failure returned.
func (c *Client) conditionFailed(ctx context.Context, start time.Time, op designs.Operation, table string, key capacity.Image, err error, asked bool) {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return
	}
	old := nilIfEmpty(ccf.Item)
	c.shadow.learn(table, old, true, start)
	if asked {
		ccf.Item = nil
	}
	c.wrote(ctx, start, op, table, nil, capacity.Write{Before: old, After: old, Failed: true, Key: key})
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
