package meter

import (
	"context"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// The read calls. Each goes out as the pattern sent it, asking also for
// its capacity and for the key attributes the meter needs; the pattern gets
// the answer it asked for, and the whole items read teach the shadow.

// GetItem reads one item; a miss still charges a read of its partition.
func (c *Client) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
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
		observe(ctx, o)
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// Query reads one page of a partition of the table or an index. A filtered
// or counting Query is charged for the items it evaluated (see evaluated).
func (c *Client) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression, in.FilterExpression)
	req.ProjectionExpression, req.ExpressionAttributeNames, pg.added = c.withKeys(in.ProjectionExpression, in.ExpressionAttributeNames)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.Query(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	res := pageResult{items: out.Items, cc: out.ConsumedCapacity, count: int(out.Count), scanned: int(out.ScannedCount),
		last: out.LastEvaluatedKey}
	if part, ok := c.schema.QueryPartition(pg.index, ddbitem.Condition{Expr: aws.ToString(in.KeyConditionExpression),
		Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}); ok {
		res.addressed = []ddbitem.Item{part}
	}
	if pg.filtered || pg.counted { // only these need the range they read
		res.keyRange = &ddbitem.KeyRange{Index: pg.index, Forward: aws.ToBool(in.ScanIndexForward) || in.ScanIndexForward == nil,
			Start: in.ExclusiveStartKey, Key: ddbitem.Condition{Expr: aws.ToString(in.KeyConditionExpression),
				Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	}
	c.readPage(ctx, sent, start, designs.Query, pg, res)
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// Scan reads one page of the whole table or index.
func (c *Client) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression, in.FilterExpression)
	pg.wholeScan = in.ExclusiveStartKey == nil && in.Segment == nil
	req.ProjectionExpression, req.ExpressionAttributeNames, pg.added = c.withKeys(in.ProjectionExpression, in.ExpressionAttributeNames)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.Scan(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	c.readPage(ctx, sent, start, designs.Scan, pg, pageResult{items: out.Items, cc: out.ConsumedCapacity,
		count: int(out.Count), scanned: int(out.ScannedCount), last: out.LastEvaluatedKey})
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// TransactGetItems reads items in one transaction: one observation per
// table, transactional and consistent. It asks for TOTAL capacity, the only
// detail the call accepts.
// Source: https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/Package/-aws-sdk-client-dynamodb/Interface/TransactGetItemsCommandInput
func (c *Client) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityTotal)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.TransactGetItems(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	observe := c.observer()
	var byTable map[string]*pricing.Observation
	if observe != nil {
		byTable = map[string]*pricing.Observation{}
	}
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
		observe(ctx, *byTable[t])
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// BatchGetItem reads items of one or more tables: one observation per
// table. Keys DynamoDB left unprocessed were not read and cost nothing;
// the other keys it found no item for are misses.
func (c *Client) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = askCapacity(in.ReturnConsumedCapacity, types.ReturnConsumedCapacityIndexes)
	var added map[string][]string // nil unless a projection needed keys
	for table, ka := range in.RequestItems {
		var add []string
		ka.ProjectionExpression, ka.ExpressionAttributeNames, add = c.withKeys(ka.ProjectionExpression, ka.ExpressionAttributeNames)
		if add != nil {
			if added == nil {
				added, req.RequestItems = map[string][]string{}, maps.Clone(in.RequestItems)
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
		observe(ctx, o)
	}
	unasked(in.ReturnConsumedCapacity, &out.ConsumedCapacity)
	return out, nil
}

// page is what Query and Scan share about the page they read.
type page struct {
	table, index      string
	consistent, whole bool
	filtered, counted bool
	wholeScan         bool     // a Scan from the first item, not one segment of a parallel Scan
	added             []string // key attributes the client added to the projection
}

// pageResult is what DynamoDB answered for a page, and what the request
// addressed.
type pageResult struct {
	items          []ddbitem.Item
	cc             *types.ConsumedCapacity
	count, scanned int
	last           ddbitem.Item
	addressed      []ddbitem.Item
	keyRange       *ddbitem.KeyRange // a Query's; nil for a Scan
}

// newPage is what a Query or Scan input says of the page it reads.
func (c *Client) newPage(table, index *string, consistent *bool, sel types.Select, projection, filter *string) page {
	return page{table: aws.ToString(table), index: aws.ToString(index), consistent: aws.ToBool(consistent),
		whole: c.fullRead(aws.ToString(index), projection, sel), filtered: filter != nil, counted: sel == types.SelectCount}
}

// readPage observes a page, lets the shadow learn its whole items and takes
// out of them the keys the client added.
func (c *Client) readPage(ctx context.Context, sent uint64, start time.Time, op designs.Operation, pg page, res pageResult) {
	if observe := c.observer(); observe != nil {
		o := observation(ctx, start, op, pg.table)
		o.Index, o.Consistent, o.Local = pg.index, pg.consistent, local(res.cc)
		o.Reads, o.Addressed = c.readImages(pg.table, pg.index, res.items, pg.whole), res.addressed
		if pg.filtered || pg.counted {
			o.Filtered, o.Counted, o.Returned, o.Scanned = pg.filtered, pg.counted, res.count, res.scanned
			o.Evaluated = pricing.EvaluatedLocal
			if reads, ok := c.evaluated(pg, res, o.Reads); ok {
				o.Reads, o.Evaluated = reads, pricing.EvaluatedShadow
			}
		}
		observe(ctx, o)
	}
	c.learnAll(pg.table, res.items, pg.whole, pg.consistent, sent)
	stripKeys(res.items, pg.added)
}

// evaluated names the items a filtered or counting read evaluated, which
// DynamoDB charges whether or not it returned them: the shadow's entries in
// the range the read covered, as many as its ScannedCount. They are trusted
// only when they agree with the answer: every returned item among them, the
// last of them at the LastEvaluatedKey, or none left when the read reached
// the end of its range. ok is false otherwise (a write the shadow has not
// seen yet, or a Scan in pages, whose order is DynamoDB's own): the call is
// then charged at Local's figure. A returned item keeps the image readImages
// gave it (an LSI entry fetched from the table stays whole).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html
func (c *Client) evaluated(pg page, res pageResult, returned []ddbitem.Item) ([]ddbitem.Item, bool) {
	// A Query reads one partition: gather only its items from the shadow.
	pks := c.schema.PartitionAttrs(pg.index)
	var part ddbitem.Item
	if res.keyRange != nil && len(res.addressed) > 0 {
		part = res.addressed[0]
	}
	var all []ddbitem.Item
	c.shadow.each(pg.table, func(it ddbitem.Item) {
		if part == nil || samePartition(it, part, pks) {
			all = append(all, it)
		}
	})
	var rng []ddbitem.Item
	switch {
	case res.keyRange != nil:
		var err error
		if rng, err = c.schema.Range(all, *res.keyRange); err != nil {
			return nil, false
		}
	case pg.wholeScan && res.last == nil:
		for _, it := range all {
			if e := c.entry(pg.index, it); e != nil {
				rng = append(rng, e)
			}
		}
	default:
		return nil, false
	}
	if len(rng) < res.scanned || (res.last == nil && len(rng) != res.scanned) ||
		(res.last != nil && (res.scanned == 0 || !ddbitem.SameKey(rng[res.scanned-1], res.last))) {
		return nil, false
	}
	rng = rng[:res.scanned]
	pos := make(map[string]int, len(rng))
	for i, e := range rng {
		id, _ := c.schema.KeyID(e)
		pos[id] = i
	}
	for _, img := range returned {
		id, _ := c.schema.KeyID(img)
		i, ok := pos[id]
		if !ok {
			return nil, false
		}
		rng[i] = img
	}
	return rng, true
}

// entry is item as index (""; the table) stores it.
func (c *Client) entry(index string, item ddbitem.Item) ddbitem.Item {
	if index == "" {
		return item
	}
	return c.schema.EntryOf(index, item)
}

func (c *Client) readImages(table, index string, items []ddbitem.Item, whole bool) []ddbitem.Item {
	if whole {
		return items
	}
	imgs := make([]ddbitem.Item, len(items))
	for i, it := range items {
		imgs[i] = c.readImage(table, index, it, it, true)
	}
	return imgs
}

// learnAll lets the shadow learn whole items a read sent at event sent
// returned.
func (c *Client) learnAll(table string, items []ddbitem.Item, whole, consistent bool, sent uint64) {
	if !whole {
		return
	}
	for _, it := range items {
		c.shadow.read(table, nil, it, consistent, sent)
	}
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

// samePartition reports whether item holds part's values under pks, the
// attributes of a partition key.
func samePartition(item, part ddbitem.Item, pks []string) bool {
	for _, a := range pks {
		if !ddbitem.EqualValue(item[a], part[a]) {
			return false
		}
	}
	return true
}
