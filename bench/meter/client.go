package bench

import (
	"context"
	"maps"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// Observer receives what each call did. The client calls it from the
// goroutine that made the call, so it must be safe for concurrent use and
// quick.
type Observer func(capacity.Observation)

// Client is the designs.DB bench hands to a scenario's driver. Every call
// asks DynamoDB for its consumed capacity (INDEXES; TOTAL for
// TransactGetItems, which takes nothing else) and becomes a
// capacity.Observation naming the pattern in the call's context, the
// operation, the table or index, the consistency, the items read and, for
// writes, each item's image before and after.
//
// Patterns see exactly what they asked for. Where a write asked for no
// return values the client asks for the old image (ALL_OLD: no extra
// capacity, DynamoDB says) and takes it out again before the pattern sees
// the output, and likewise for ReturnValuesOnConditionCheckFailure and
// ConsumedCapacity; an update asked for ALL_NEW gets ALL_OLD, and the new
// image the client computes from it. Images DynamoDB does not return
// (transactions, batch writes, an update asked for UPDATED_*) come from the
// client's shadow of the table: the last image of every item it wrote or
// read.
//
// Reads carry images as stored where the read happened: the whole item on
// the table, the index entry (the item projected onto the index) on an
// index, also when the pattern projected fewer attributes; the whole item
// again when an LSI read returned attributes the index does not hold, which
// DynamoDB fetches from the table. Writes carry whole items.
type Client struct {
	db      designs.DB
	schema  designs.Schema
	indexes map[string]designs.Index
	lsis    map[string]bool
	shadow  *shadow
	observe atomic.Pointer[Observer]
	approx  atomic.Int64
}

// NewClient wraps db for a table of schema s. It observes nothing until
// Observe is called; it keeps its shadow of the table from the first call.
func NewClient(db designs.DB, s designs.Schema) *Client {
	c := &Client{db: db, schema: s, indexes: map[string]designs.Index{}, lsis: map[string]bool{}, shadow: newShadow(s)}
	for _, ix := range s.GSIs {
		c.indexes[ix.Name] = ix
	}
	for _, ix := range s.LSIs {
		ix.PK = s.PK // an LSI shares the table's partition key
		c.indexes[ix.Name], c.lsis[ix.Name] = ix, true
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

// Approximations counts the writes whose after image the client could not
// compute (an update expression it does not read) and took as unchanged, or
// read back for a pattern that asked for it.
func (c *Client) Approximations() int64 { return c.approx.Load() }

// Items calls f with every item the client knows table to hold: the table
// as the run left it, for sizes. f must not call the client.
func (c *Client) Items(table string, f func(capacity.Image)) { c.shadow.each(table, f) }

func (c *Client) observer() Observer {
	if o := c.observe.Load(); o != nil {
		return *o
	}
	return nil
}

// observation starts the observation of a call made at start.
func observation(ctx context.Context, start time.Time, op designs.Operation, table string) capacity.Observation {
	return capacity.Observation{At: start, Pattern: PatternOf(ctx), Op: op, Table: table}
}

// keyOf is the primary key of item, for Write.Key and Addressed.
func (c *Client) keyOf(item capacity.Image) capacity.Image {
	k := make(capacity.Image, 2)
	if v, ok := item[c.schema.PK]; ok {
		k[c.schema.PK] = v
	}
	if c.schema.SK != "" {
		if v, ok := item[c.schema.SK]; ok {
			k[c.schema.SK] = v
		}
	}
	return k
}

// readImage is the image a read of item charges: the whole item from the
// shadow (found by the key attributes of at) when the read projected part
// of it, then the index entry when it read an index, unless the read
// returned attributes an LSI does not hold.
func (c *Client) readImage(table, index string, at, item capacity.Image, projected bool) capacity.Image {
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
	e := c.entry(index, full)
	if c.lsis[index] && !covers(e, item) {
		return full // an LSI fetched the rest from the table: the capacity model charges that too
	}
	return e
}

// covers reports whether every attribute of item is in entry.
func covers(entry, item capacity.Image) bool {
	for n := range item {
		if _, ok := entry[n]; !ok {
			return false
		}
	}
	return true
}

// entry projects a whole item onto an index: the table's and the index's
// keys, plus the projected attributes.
func (c *Client) entry(index string, item capacity.Image) capacity.Image {
	ix, ok := c.indexes[index]
	if !ok || ix.Projection == "" || ix.Projection == types.ProjectionTypeAll {
		return item
	}
	keep := append([]string{c.schema.PK, c.schema.SK, ix.PK, ix.SK}, ix.NonKey...)
	e := make(capacity.Image, len(keep))
	for _, n := range keep {
		if v, ok := item[n]; ok && n != "" {
			e[n] = v
		}
	}
	return e
}

// fullRead reports whether a read returns whole items as stored where it
// reads (so the shadow may learn them, and readImage has nothing to add).
func (c *Client) fullRead(index string, projection *string, sel types.Select) bool {
	if projection != nil || sel == types.SelectSpecificAttributes || sel == types.SelectCount {
		return false
	}
	if index == "" {
		return true
	}
	ix := c.indexes[index]
	return ix.Projection == "" || ix.Projection == types.ProjectionTypeAll
}

// local keeps DynamoDB's own figure for a call.
func local(cc *types.ConsumedCapacity) []types.ConsumedCapacity {
	if cc == nil {
		return nil
	}
	return []types.ConsumedCapacity{*cc}
}

// wantsCapacity reports whether the pattern itself asked for consumed
// capacity; if not, the client removes what it asked for.
func wantsCapacity(r types.ReturnConsumedCapacity) bool {
	return r != "" && r != types.ReturnConsumedCapacityNone
}

// nilIfEmpty turns DynamoDB's "no item" (an empty or missing map) into nil.
func nilIfEmpty(img capacity.Image) capacity.Image {
	if len(img) == 0 {
		return nil
	}
	return img
}
