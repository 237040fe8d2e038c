package meter

import (
	"context"
	"maps"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// Observer receives what each call did, with the call's context (which
// may carry the pattern call it belongs to). The client calls it from the
// goroutine that made the call, so it must be safe for concurrent use and
// quick.
type Observer func(context.Context, pricing.Observation)

// Client is the designs.DB bench hands to a scenario's driver. Every call
// asks DynamoDB for its consumed capacity (INDEXES; TOTAL for
// TransactGetItems, which takes nothing else) and becomes a
// pricing.Observation naming the pattern in the call's context
// (designs.WithPattern), the operation, the table or index, the
// consistency, the items read and, for writes, each item's image before and
// after.
//
// Patterns see exactly what they asked for. Where a single-item write asked
// for no return values or for ALL_OLD, the client asks for the old image
// (ALL_OLD: no extra capacity, DynamoDB says) and takes it out again before
// the pattern sees the output, and likewise for
// ReturnValuesOnConditionCheckFailure and ConsumedCapacity; an update's new
// image is the old one with the update expression applied (package
// ddbitem). An update asked for ALL_NEW gets it from DynamoDB. Images
// DynamoDB does not return (transactions, batch writes, an update's old
// image under ALL_NEW or UPDATED_*) come from the client's shadow of the
// table, ordered by the rule of order: where that rule leaves an image
// unsure, the write is counted (Unsure) and the shadow settles the item
// with a read of its own, outside every measured call.
//
// Reads carry images as stored where the read happened: the whole item on
// the table, the index entry (the item projected onto the index) on an
// index, also when the pattern projected fewer attributes; the whole item
// again when an LSI read returned attributes the index does not hold, which
// DynamoDB fetches from the table. Writes carry whole items.
type Client struct {
	db      designs.DB
	schema  ddbitem.Schema
	shadow  *shadow
	clock   func() time.Time
	observe atomic.Pointer[Observer]
	approx  atomic.Int64
	unsure  atomic.Int64

	verbatim bool
}

// Option configures a Client.
type Option func(*Client)

// Clock sets what stamps each observation with its start (default
// time.Now), so that specs of the ledger's seconds need no real time.
func Clock(now func() time.Time) Option { return func(c *Client) { c.clock = now } }

// Verbatim makes the client change a request only where taking members
// out of DynamoDB's answer gives back the answer to the request as sent
// (package endpoint hands DynamoDB's own bytes on): an update asking for
// ALL_NEW goes as asked, its old image from the shadow.
func Verbatim() Option { return func(c *Client) { c.verbatim = true } }

// NewClient wraps db for a table of schema s. It observes nothing until
// Observe is called; it keeps its shadow of the table from the first call.
func NewClient(db designs.DB, s designs.Schema, opts ...Option) *Client {
	c := &Client{db: db, schema: s.ItemSchema(), clock: time.Now}
	c.shadow = newShadow(c.schema, c.readBack)
	for _, o := range opts {
		o(c)
	}
	return c
}

var _ designs.DB = (*Client)(nil)

// Observe sends every later call's observation to o; nil stops observing
// (the shadow is still kept).
func (c *Client) Observe(o Observer) {
	if o == nil {
		c.observe.Store(nil)
		return
	}
	c.observe.Store(&o)
}

// Fidelity is how far the client's images can be trusted, for the report.
type Fidelity struct {
	// Approximations counts writes whose after image the client could not
	// compute (an update expression it does not read).
	Approximations int64 `json:"approximations"`
	// Unsure counts writes accounted from an image the client assumed while
	// another write of the item overlapped them, or on an unsure item.
	Unsure int64 `json:"unsure_writes"`
	// SettleReads counts the reads the shadow made to settle unsure items,
	// outside every measured call.
	SettleReads int64 `json:"settle_reads"`
	// StillUnsure counts items left unsure after Settle.
	StillUnsure int `json:"still_unsure,omitempty"`
}

// Settle waits for the shadow's settling reads to finish (or ctx to end)
// and says how far the images can be trusted.
func (c *Client) Settle(ctx context.Context) Fidelity {
	_ = c.shadow.settle.wait(ctx)
	return Fidelity{Approximations: c.approx.Load(), Unsure: c.unsure.Load(),
		SettleReads: c.shadow.settle.reads.Load(), StillUnsure: c.shadow.unsure()}
}

// Items calls f with every item the client knows table to hold: the table
// as the run left it, for sizes. f must not call the client.
func (c *Client) Items(table string, f func(ddbitem.Item)) { c.shadow.each(table, f) }

func (c *Client) observer() Observer {
	if o := c.observe.Load(); o != nil {
		return *o
	}
	return nil
}

// observation starts the observation of a call made at start.
func observation(ctx context.Context, start time.Time, op designs.Operation, table string) pricing.Observation {
	return pricing.Observation{At: start, Pattern: designs.PatternOf(ctx), Op: op, Table: table}
}

// readBack is the shadow's settling read: consistent, unobserved.
func (c *Client) readBack(ctx context.Context, table string, key ddbitem.Item) (ddbitem.Item, error) {
	ctx = designs.WithHarnessCall(ctx) // it stands for no call of the design
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	return nilIfEmpty(out.Item), nil
}

// readImage is the image a read of item charges: the whole item from the
// shadow (found by the key attributes of at) when the read projected part
// of it, then the index entry when it read an index, unless the read
// returned attributes an LSI does not hold.
func (c *Client) readImage(table, index string, at, item ddbitem.Item, projected bool) ddbitem.Item {
	if !projected {
		return item
	}
	full := c.shadow.get(table, at)
	if full == nil {
		full = maps.Clone(item) // the pattern's copy loses the keys the client added
	}
	if index == "" {
		return full
	}
	ix, _ := c.schema.Index(index)
	e := c.schema.Entry(ix, full)
	if ix.Local && !ddbitem.Covers(e, item) {
		return full // an LSI fetched the rest from the table: the capacity model charges that too
	}
	return e
}

// fullRead reports whether a read returns whole items as stored where it
// reads (so the shadow may learn them, and readImage has nothing to add).
func (c *Client) fullRead(index string, projection *string, sel types.Select) bool {
	if projection != nil || sel == types.SelectSpecificAttributes || sel == types.SelectCount {
		return false
	}
	return c.schema.Projects(index)
}

// local keeps DynamoDB's own figure for a call.
func local(cc *types.ConsumedCapacity) []types.ConsumedCapacity {
	if cc == nil {
		return nil
	}
	return []types.ConsumedCapacity{*cc}
}

// unasked shapes the consumed capacity the client asked for on a
// pattern's behalf as the pattern asked: none, or TOTAL (without the
// per-table and per-index figures INDEXES adds).
func unasked[C any](asked types.ReturnConsumedCapacity, cc *C) {
	switch asked {
	case "", types.ReturnConsumedCapacityNone:
		var none C
		*cc = none
	case types.ReturnConsumedCapacityTotal:
		switch cc := any(cc).(type) {
		case **types.ConsumedCapacity:
			if *cc != nil {
				total(*cc)
			}
		case *[]types.ConsumedCapacity:
			for i := range *cc {
				total(&(*cc)[i])
			}
		}
	}
}

func total(cc *types.ConsumedCapacity) {
	cc.Table, cc.GlobalSecondaryIndexes, cc.LocalSecondaryIndexes = nil, nil, nil
}

// askCapacity is the ReturnConsumedCapacity to send for a pattern that
// asked for asked, want being what the client needs: a value DynamoDB
// refuses goes as asked, so that DynamoDB refuses it.
func askCapacity(asked, want types.ReturnConsumedCapacity) types.ReturnConsumedCapacity {
	switch asked {
	case "", types.ReturnConsumedCapacityNone, types.ReturnConsumedCapacityTotal:
		return want
	}
	return asked
}

// askOld is the ReturnValues to send for a put or delete that asked for
// asked: ALL_OLD where the pattern asked for nothing, and any other value
// as asked, so that DynamoDB refuses what it refuses (UPDATED_OLD,
// ALL_NEW, an unknown word) and writes nothing.
func askOld(asked types.ReturnValue) types.ReturnValue {
	if asked == "" || asked == types.ReturnValueNone {
		return types.ReturnValueAllOld
	}
	return asked
}

// nilIfEmpty turns DynamoDB's "no item" (an empty or missing map) into nil.
func nilIfEmpty(img ddbitem.Item) ddbitem.Item {
	if len(img) == 0 {
		return nil
	}
	return img
}

// Current is the item the client's shadow holds for key in table: the
// table as the client last saw it (nil: no item, or none known).
func (c *Client) Current(table string, key ddbitem.Item) ddbitem.Item {
	return c.shadow.get(table, key)
}
