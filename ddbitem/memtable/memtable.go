// Package memtable is a DynamoDB table in memory: Table, the image it
// knows of each item, and Memory, which serves the SDK's write calls and
// GetItem from one, folding each write as DynamoDB applies it (conditions,
// update expressions, transactions all or nothing) with ddbitem's rules.
// The fixtures' seed, the lint's probes, the cost sampler and the MCP
// import's expectations use it in place of a DynamoDB.
package memtable

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Table is one in-memory DynamoDB table: the image it knows of each item,
// by primary key. An image may be nil: the item is known not to exist. An
// item it holds no image for is unknown, which Memory reads through. Table
// is not safe for concurrent use.
type Table struct {
	schema ddbitem.Schema
	items  map[string]ddbitem.Item
}

// NewTable returns an empty table of schema s.
func NewTable(s ddbitem.Schema) *Table { return &Table{schema: s, items: map[string]ddbitem.Item{}} }

// Lookup returns the image at key and whether the table holds one; the
// error names a missing or mistyped key attribute.
func (t *Table) Lookup(key ddbitem.Item) (item ddbitem.Item, held bool, err error) {
	id, err := t.id(key)
	if err != nil {
		return nil, false, err
	}
	item, held = t.items[id]
	return item, held, nil
}

// Set stores the image at key (nil: the item does not exist).
func (t *Table) Set(key, item ddbitem.Item) error {
	id, err := t.id(key)
	if err != nil {
		return err
	}
	t.items[id] = nilIfEmpty(item)
	return nil
}

// Len is how many images the table holds, items known absent included.
func (t *Table) Len() int { return len(t.items) }

// Forget drops every image: items become unknown.
func (t *Table) Forget() { clear(t.items) }

// Each calls f with every item the table holds, in no particular order.
func (t *Table) Each(f func(ddbitem.Item)) {
	for _, it := range t.items {
		if it != nil {
			f(it)
		}
	}
}

func (t *Table) id(key ddbitem.Item) (string, error) {
	id, ok := t.schema.KeyID(key)
	if !ok {
		return "", fmt.Errorf("%w: item lacks a string, number or binary key attribute %s or %s", ErrInvalidKey, t.schema.PK, t.schema.SK)
	}
	return id, nil
}

func nilIfEmpty(it ddbitem.Item) ddbitem.Item {
	if len(it) == 0 {
		return nil
	}
	return it
}

// ErrInvalidKey is a request whose item or key lacks a key attribute.
var ErrInvalidKey = errors.New("invalid key")

// ErrUnsupported is a request Memory does not serve.
var ErrUnsupported = errors.New("not served by the in-memory table")

// Change is what one write did to its item. Before is nil where no rule
// needed the old image (an unconditional put or delete): Memory reads
// nothing it does not need.
type Change struct {
	Write         ddbitem.Write
	Before, After ddbitem.Item
}

// Memory serves the write calls of the DynamoDB API, and GetItem, from a
// Table: PutItem, UpdateItem, DeleteItem, BatchWriteItem and
// TransactWriteItems fold into the images of their items as DynamoDB
// applies them: conditions evaluated, a failed one answered with the SDK's
// own ConditionalCheckFailedException or TransactionCanceledException and
// nothing written, update expressions applied, ALL_OLD and ALL_NEW
// returned. Other calls are ErrUnsupported. Memory is safe for concurrent
// use; its options are set before the first call.
type Memory struct {
	mu     sync.Mutex
	t      *Table
	name   string
	miss   func(ctx context.Context, key ddbitem.Item) (ddbitem.Item, error)
	trust  bool
	seen   func(Change)
	refuse func(error) error
}

// MemoryOption configures a Memory.
type MemoryOption func(*Memory)

// ReadThrough makes Memory ask read for the item at a key it holds no image
// of, when it needs one (for a condition, an update, or old values); by
// default such an item does not exist.
func ReadThrough(read func(ctx context.Context, key ddbitem.Item) (ddbitem.Item, error)) MemoryOption {
	return func(m *Memory) { m.miss = read }
}

// TrustConditions makes Memory take every condition as true, so that a
// write that needs no old image reads none: for a seed that makes its
// conditions true by construction and must not read its table back.
func TrustConditions() MemoryOption { return func(m *Memory) { m.trust = true } }

// OnChange calls f with each change a write makes, under Memory's lock.
func OnChange(f func(Change)) MemoryOption { return func(m *Memory) { m.seen = f } }

// Refusals makes Memory pass each error that refuses a request it cannot
// fold (ErrUnsupported, ErrInvalidKey) through wrap, so that its caller
// classes them as its own (a seed's invalid input).
func Refusals(wrap func(error) error) MemoryOption { return func(m *Memory) { m.refuse = wrap } }

// refused is err, through the Refusals wrap when it refuses the request.
func (m *Memory) refused(err error) error {
	if m.refuse != nil && (errors.Is(err, ErrUnsupported) || errors.Is(err, ErrInvalidKey)) {
		return m.refuse(err)
	}
	return err
}

// NewMemory returns an empty in-memory table of schema s named name.
func NewMemory(s ddbitem.Schema, name string, opts ...MemoryOption) *Memory {
	m := &Memory{t: NewTable(s), name: name}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Locked calls f with the table under Memory's lock.
func (m *Memory) Locked(f func(*Table)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(m.t)
}

// Items returns every item the table holds, in no particular order.
func (m *Memory) Items() []ddbitem.Item {
	var out []ddbitem.Item
	m.Locked(func(t *Table) { t.Each(func(it ddbitem.Item) { out = append(out, it) }) })
	return out
}

// CheckFailed is a write whose condition did not hold: nothing was written.
type CheckFailed struct {
	Index int          // the write's position in the request
	Item  ddbitem.Item // the item as it stood (nil: none)
}

func (e *CheckFailed) Error() string {
	return fmt.Sprintf("write %d: the conditional request failed", e.Index)
}

// old returns the image at key, reading it through when unknown.
func (m *Memory) old(ctx context.Context, key ddbitem.Item) (ddbitem.Item, error) {
	it, held, err := m.t.Lookup(key)
	if err != nil || held || m.miss == nil {
		return it, err
	}
	if it, err = m.miss(ctx, key); err != nil {
		return nil, err
	}
	return it, m.t.Set(key, it)
}

// apply folds ws as one request: every condition is evaluated first, and a
// failed one (*CheckFailed) or a bad expression writes nothing. wantOld
// reads each item's old image even when nothing else needs it.
func (m *Memory) apply(ctx context.Context, ws []ddbitem.Write, wantOld bool) ([]Change, error) {
	for _, w := range ws {
		if w.Table != m.name {
			return nil, fmt.Errorf("request for table %q: %w: this in-memory table is %q", w.Table, ErrUnsupported, m.name)
		}
	}
	changes := make([]Change, len(ws))
	for i, w := range ws {
		changes[i].Write = w
		checked := w.Condition != nil && !m.trust
		if !wantOld && !checked && w.Update == nil {
			if _, err := m.t.id(w.Key); err != nil {
				return nil, err
			}
			continue
		}
		old, err := m.old(ctx, w.Key)
		if err != nil {
			return nil, err
		}
		changes[i].Before = old
		if !checked {
			continue
		}
		ok, err := w.Holds(old)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &CheckFailed{Index: i, Item: old}
		}
	}
	for i := range changes {
		c := &changes[i]
		after, err := c.Write.After(c.Before)
		if err != nil {
			return nil, err
		}
		c.After = nilIfEmpty(after)
	}
	for _, c := range changes {
		if c.Write.Check {
			continue
		}
		if err := m.t.Set(c.Write.Key, c.After); err != nil {
			return nil, err
		}
		if m.seen != nil {
			m.seen(c)
		}
	}
	return changes, nil
}

// single folds one single-item write and turns a failed condition into
// the SDK's error.
func (m *Memory) single(ctx context.Context, w ddbitem.Write, wantOld bool) (Change, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs, err := m.apply(ctx, []ddbitem.Write{w}, wantOld)
	var cf *CheckFailed
	if errors.As(err, &cf) {
		e := &types.ConditionalCheckFailedException{Message: aws.String("The conditional request failed")}
		if w.OldOnFailure {
			e.Item = maps.Clone(cf.Item)
		}
		return Change{}, e
	}
	if err != nil {
		return Change{}, m.refused(err)
	}
	return cs[0], nil
}

// PutItem stores the item.
func (m *Memory) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	w := m.t.schema.PutWrite(in)
	w.Put = maps.Clone(in.Item)
	c, err := m.single(ctx, w, in.ReturnValues == types.ReturnValueAllOld)
	if err != nil {
		return nil, err
	}
	return &dynamodb.PutItemOutput{Attributes: maps.Clone(c.Before)}, nil
}

// UpdateItem applies the update expression, returning ALL_OLD or ALL_NEW
// as asked; the UPDATED_ forms are ErrUnsupported.
func (m *Memory) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	switch in.ReturnValues {
	case "", types.ReturnValueNone, types.ReturnValueAllNew, types.ReturnValueAllOld:
	default:
		return nil, m.refused(fmt.Errorf("ReturnValues %s: %w: it returns whole items only", in.ReturnValues, ErrUnsupported))
	}
	c, err := m.single(ctx, ddbitem.UpdateWrite(in), false)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.UpdateItemOutput{}
	switch in.ReturnValues {
	case types.ReturnValueAllNew:
		out.Attributes = maps.Clone(c.After)
	case types.ReturnValueAllOld:
		out.Attributes = maps.Clone(c.Before)
	}
	return out, nil
}

// DeleteItem removes the item.
func (m *Memory) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c, err := m.single(ctx, ddbitem.DeleteWrite(in), in.ReturnValues == types.ReturnValueAllOld)
	if err != nil {
		return nil, err
	}
	return &dynamodb.DeleteItemOutput{Attributes: maps.Clone(c.Before)}, nil
}

// BatchWriteItem applies every put and delete; nothing is left unprocessed.
func (m *Memory) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ws := m.t.schema.BatchWrites(in.RequestItems)
	for i := range ws {
		ws[i].Put = maps.Clone(ws[i].Put)
	}
	if _, err := m.apply(ctx, ws, false); err != nil {
		return nil, m.refused(err)
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TransactWriteItems applies every action or none: a failed condition
// cancels the transaction with one reason per action, as DynamoDB does.
func (m *Memory) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ws := m.t.schema.TransactWrites(in.TransactItems)
	_, err := m.apply(ctx, ws, false)
	var cf *CheckFailed
	if errors.As(err, &cf) {
		reasons := make([]types.CancellationReason, len(ws))
		for i := range reasons {
			reasons[i].Code = aws.String("None")
		}
		reasons[cf.Index].Code = aws.String("ConditionalCheckFailed")
		if ws[cf.Index].OldOnFailure {
			reasons[cf.Index].Item = maps.Clone(cf.Item)
		}
		return nil, &types.TransactionCanceledException{Message: aws.String("Transaction cancelled"), CancellationReasons: reasons}
	}
	if err != nil {
		return nil, m.refused(err)
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// GetItem returns the item at key (read through when unknown), whole
// whatever the projection: decoding ignores attributes it does not want.
func (m *Memory) GetItem(ctx context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if aws.ToString(in.TableName) != m.name {
		return nil, m.refused(fmt.Errorf("request for table %q: %w: this in-memory table is %q", aws.ToString(in.TableName), ErrUnsupported, m.name))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, err := m.old(ctx, in.Key)
	if err != nil {
		return nil, m.refused(err)
	}
	return &dynamodb.GetItemOutput{Item: maps.Clone(it)}, nil
}

// Query is ErrUnsupported: Memory keeps no index or sort order.
func (m *Memory) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, m.refused(fmt.Errorf("Query: %w", ErrUnsupported))
}

// Scan is ErrUnsupported.
func (m *Memory) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, m.refused(fmt.Errorf("Scan: %w", ErrUnsupported))
}

// BatchGetItem is ErrUnsupported.
func (m *Memory) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, m.refused(fmt.Errorf("BatchGetItem: %w", ErrUnsupported))
}

// TransactGetItems is ErrUnsupported.
func (m *Memory) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, m.refused(fmt.Errorf("TransactGetItems: %w", ErrUnsupported))
}
