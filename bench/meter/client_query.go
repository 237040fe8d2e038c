package meter

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Query reads one page of a partition of the table or an index. Reads are
// the items it returned: a FilterExpression would hide items DynamoDB read
// and charged, and no design uses one.
func (c *Client) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression)
	req.ProjectionExpression, req.ExpressionAttributeNames, pg.added = c.withKeys(in.ProjectionExpression, in.ExpressionAttributeNames)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.Query(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	pk := c.schema.PartitionKey(pg.index)
	var addressed []ddbitem.Item
	if v, ok := ddbitem.PartitionValue(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues, pk); ok {
		addressed = []ddbitem.Item{{pk: v}}
	}
	c.readPage(ctx, sent, start, designs.Query, pg, out.Items, out.ConsumedCapacity, addressed)
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// Scan reads one page of the whole table or index.
func (c *Client) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	req := *in
	req.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	pg := c.newPage(in.TableName, in.IndexName, in.ConsistentRead, in.Select, in.ProjectionExpression)
	req.ProjectionExpression, req.ExpressionAttributeNames, pg.added = c.withKeys(in.ProjectionExpression, in.ExpressionAttributeNames)
	sent, start := c.shadow.now(), c.clock()
	out, err := c.db.Scan(ctx, &req, opts...)
	if err != nil {
		return out, err
	}
	c.readPage(ctx, sent, start, designs.Scan, pg, out.Items, out.ConsumedCapacity, nil)
	if !wantsCapacity(in.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	return out, nil
}

// page is what Query and Scan share about the page they read.
type page struct {
	table, index      string
	consistent, whole bool
	added             []string // key attributes the client added to the projection
}

func (c *Client) newPage(table, index *string, consistent *bool, sel types.Select, projection *string) page {
	pg := page{table: aws.ToString(table), index: aws.ToString(index), consistent: aws.ToBool(consistent)}
	pg.whole = c.fullRead(pg.index, projection, sel)
	return pg
}

// readPage observes a page, lets the shadow learn its whole items and takes
// out of them the keys the client added.
func (c *Client) readPage(ctx context.Context, sent uint64, start time.Time, op designs.Operation, pg page,
	items []ddbitem.Item, cc *types.ConsumedCapacity, addressed []ddbitem.Item) {
	if observe := c.observer(); observe != nil {
		o := observation(ctx, start, op, pg.table)
		o.Index, o.Consistent, o.Local = pg.index, pg.consistent, local(cc)
		o.Reads, o.Addressed = c.readImages(pg.table, pg.index, items, pg.whole), addressed
		observe(o)
	}
	c.learnAll(pg.table, items, pg.whole, pg.consistent, sent)
	stripKeys(items, pg.added)
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
