package meter

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Query reads one page of a partition of the table or an index. A filtered
// or counting Query is charged for the items it evaluated (see evaluated).
func (c *Client) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression)
	pg.filtered, pg.counted = in.FilterExpression != nil, in.Select == types.SelectCount
	req.ProjectionExpression, req.ExpressionAttributeNames, pg.added = c.withKeys(in.ProjectionExpression, in.ExpressionAttributeNames)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.Query(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	res := pageResult{items: out.Items, cc: out.ConsumedCapacity, count: int(out.Count), scanned: int(out.ScannedCount),
		last: out.LastEvaluatedKey}
	pk := c.schema.PartitionKey(pg.index)
	if v, ok := ddbitem.PartitionValue(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues, pk); ok {
		res.addressed = []ddbitem.Item{{pk: v}}
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
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression)
	pg.filtered, pg.counted = in.FilterExpression != nil, in.Select == types.SelectCount
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

func (c *Client) newPage(table, index *string, consistent *bool, sel types.Select, projection *string) page {
	pg := page{table: aws.ToString(table), index: aws.ToString(index), consistent: aws.ToBool(consistent)}
	pg.whole = c.fullRead(pg.index, projection, sel)
	return pg
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
			o.Evaluated = capacity.EvaluatedLocal
			if reads, ok := c.evaluated(pg, res, o.Reads); ok {
				o.Reads, o.Evaluated = reads, capacity.EvaluatedShadow
			}
		}
		observe(o)
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
	pk := c.schema.PartitionKey(pg.index)
	var part ddbitem.Item
	if res.keyRange != nil && len(res.addressed) > 0 {
		part = res.addressed[0]
	}
	var all []ddbitem.Item
	c.shadow.each(pg.table, func(it ddbitem.Item) {
		if part == nil || ddbitem.EqualValue(it[pk], part[pk]) {
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
