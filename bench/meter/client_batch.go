package meter

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// BatchGetItem reads items of one or more tables: one observation per
// table. Keys DynamoDB left unprocessed were not read and cost nothing;
// the other keys it found no item for are misses.
func (c *Client) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	added := map[string][]string{}
	for table, ka := range in.RequestItems {
		var add []string
		ka.ProjectionExpression, ka.ExpressionAttributeNames, add = c.withKeys(ka.ProjectionExpression, ka.ExpressionAttributeNames)
		if add != nil {
			if len(added) == 0 {
				req.RequestItems = maps.Clone(in.RequestItems)
			}
			req.RequestItems[table], added[table] = ka, add
		}
	}
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.BatchGetItem(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	defer restoreProjections(in, out, added)
	observe := c.observer()
	for table, ka := range in.RequestItems {
		consistent, whole := aws.ToBool(ka.ConsistentRead), ka.ProjectionExpression == nil
		found := out.Responses[table]
		c.learnAll(table, found, whole, consistent, sent)
		if observe == nil {
			continue
		}
		o := observation(ctx, start, designs.BatchGetItem, table)
		o.Consistent, o.Local = consistent, tableCapacity(out.ConsumedCapacity, table)
		o.Reads = c.readImages(table, "", found, whole)
		o.Addressed = c.missing(table, ka.Keys, found, out.UnprocessedKeys[table].Keys)
		o.Misses = len(ka.Keys) - len(found) - len(out.UnprocessedKeys[table].Keys)
		observe(o)
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// restoreProjections gives the pattern its items and unprocessed keys as
// its own projections would have made them.
func restoreProjections(in *dynamodb.BatchGetItemInput, out *dynamodb.BatchGetItemOutput, added map[string][]string) {
	for table, add := range added {
		stripKeys(out.Responses[table], add)
		if ka, ok := out.UnprocessedKeys[table]; ok {
			mine := in.RequestItems[table]
			ka.ProjectionExpression, ka.ExpressionAttributeNames = mine.ProjectionExpression, mine.ExpressionAttributeNames
			out.UnprocessedKeys[table] = ka
		}
	}
}

// missing lists the requested keys that were processed and found nothing;
// an item projected without its key cannot be matched, so then it is empty.
func (c *Client) missing(table string, keys, found, unprocessed []ddbitem.Item) []ddbitem.Item {
	seen := make(map[string]bool, len(found)+len(unprocessed))
	for _, set := range [][]ddbitem.Item{found, unprocessed} {
		for _, it := range set {
			id, ok := c.shadow.id(table, it)
			if !ok {
				return nil
			}
			seen[id] = true
		}
	}
	var miss []ddbitem.Item
	for _, k := range keys {
		if id, ok := c.shadow.id(table, k); ok && !seen[id] {
			miss = append(miss, k)
		}
	}
	return miss
}

// BatchWriteItem puts and deletes items of one or more tables, without
// conditions and without return values: the old images come from the
// shadow. Requests DynamoDB left unprocessed wrote nothing.
func (c *Client) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	ws := c.schema.BatchWrites(in.RequestItems)
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
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
	byTable := map[string][]capacity.Write{}
	for _, w := range ws {
		id, _ := c.shadow.id(w.Table, w.Key)
		if skip[id] {
			c.shadow.assumed(w.Table, w.Key, unchanged)
			continue
		}
		before, after, exact := c.shadow.assumed(w.Table, w.Key, c.apply(w))
		c.countUnsure(exact)
		byTable[w.Table] = append(byTable[w.Table], capacity.Write{Before: before, After: after, Key: w.Key})
	}
	if observe := c.observer(); observe != nil {
		for _, table := range slices.Sorted(maps.Keys(byTable)) {
			o := observation(ctx, start, designs.BatchWriteItem, table)
			o.Writes, o.Local = byTable[table], tableCapacity(out.ConsumedCapacity, table)
			observe(o)
		}
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
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

// tableCapacity picks DynamoDB's figure for one table out of a multi-table
// call's list.
func tableCapacity(all []types.ConsumedCapacity, table string) []types.ConsumedCapacity {
	for _, cc := range all {
		if aws.ToString(cc.TableName) == table {
			return []types.ConsumedCapacity{cc}
		}
	}
	return nil
}
