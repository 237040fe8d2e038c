package lint

import (
	"context"
	"fmt"
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ddbexpr"
	"github.com/ddbharness/ddbharness/designs"
)

// Sink is an in-memory table that a design's seed writes into: the lint
// measures generated fixtures without DynamoDB. It stores what PutItem,
// UpdateItem (applied by bench/ddbexpr, as the fixtures loader applies
// them), DeleteItem, BatchWriteItem and TransactWriteItems write, and
// serves GetItem, which the fixtures loader uses to read an item back.
// Conditions are not evaluated: a seed makes them true by construction.
// Query, Scan and the batch and transactional reads are refused with
// errUnsupported; no seed uses them, and a seed that starts to will fail
// loudly here rather than be measured wrong.
//
// Seeding in memory rather than on DynamoDB Local keeps the lint a unit
// check: it runs in make test and inside make verify in a few seconds, and
// the seeds already fold their writes in memory (fixtures.Loader), so
// nothing DynamoDB does differently would change what is measured.
type Sink struct {
	schema designs.Schema

	mu    sync.Mutex
	items map[string]ddbexpr.Item
}

// errUnsupported is a call the Sink does not serve.
var errUnsupported = fmt.Errorf("lint sink: %w: only writes and GetItem are served", designs.ErrInvalidInput)

// NewSink returns an empty in-memory table of schema s.
func NewSink(s designs.Schema) *Sink { return &Sink{schema: s, items: map[string]ddbexpr.Item{}} }

var _ designs.DB = (*Sink)(nil)

// Items returns every stored item, in no particular order.
func (s *Sink) Items() []ddbexpr.Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slicesOf(s.items)
}

func slicesOf(m map[string]ddbexpr.Item) []ddbexpr.Item {
	out := make([]ddbexpr.Item, 0, len(m))
	for _, it := range m {
		out = append(out, it)
	}
	return out
}

func (s *Sink) put(item ddbexpr.Item) error {
	_, k, err := s.schema.KeyOf(item)
	if err != nil {
		return err
	}
	s.items[k] = maps.Clone(item)
	return nil
}

func (s *Sink) del(key ddbexpr.Item) error {
	_, k, err := s.schema.KeyOf(key)
	if err != nil {
		return err
	}
	delete(s.items, k)
	return nil
}

func (s *Sink) update(key ddbexpr.Item, expr *string, names map[string]string, values map[string]types.AttributeValue) (old, updated ddbexpr.Item, err error) {
	key, k, err := s.schema.KeyOf(key)
	if err != nil {
		return nil, nil, err
	}
	old = s.items[k]
	updated, err = ddbexpr.ApplyUpdate(old, key, aws.ToString(expr), names, values)
	if err != nil {
		return nil, nil, fmt.Errorf("lint sink: %w", err)
	}
	s.items[k] = updated
	return old, updated, nil
}

// PutItem stores the item, replacing any with its key.
func (s *Sink) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &dynamodb.PutItemOutput{}, s.put(in.Item)
}

// UpdateItem applies the update expression to the stored item (or to the
// item its key makes), returning the new image for ALL_NEW.
func (s *Sink) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, updated, err := s.update(in.Key, in.UpdateExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.UpdateItemOutput{}
	switch in.ReturnValues {
	case types.ReturnValueAllNew, types.ReturnValueUpdatedNew:
		out.Attributes = maps.Clone(updated)
	case types.ReturnValueAllOld, types.ReturnValueUpdatedOld:
		out.Attributes = maps.Clone(old)
	}
	return out, nil
}

// DeleteItem removes the item.
func (s *Sink) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &dynamodb.DeleteItemOutput{}, s.del(in.Key)
}

// BatchWriteItem applies every put and delete; nothing is left unprocessed.
func (s *Sink) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, reqs := range in.RequestItems {
		for _, r := range reqs {
			var err error
			switch {
			case r.PutRequest != nil:
				err = s.put(r.PutRequest.Item)
			case r.DeleteRequest != nil:
				err = s.del(r.DeleteRequest.Key)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TransactWriteItems applies each action in order; condition checks are
// not evaluated.
func (s *Sink) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range in.TransactItems {
		var err error
		switch {
		case a.Put != nil:
			err = s.put(a.Put.Item)
		case a.Update != nil:
			_, _, err = s.update(a.Update.Key, a.Update.UpdateExpression, a.Update.ExpressionAttributeNames, a.Update.ExpressionAttributeValues)
		case a.Delete != nil:
			err = s.del(a.Delete.Key)
		}
		if err != nil {
			return nil, err
		}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// GetItem returns the stored item, if any.
func (s *Sink) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, k, err := s.schema.KeyOf(in.Key)
	if err != nil {
		return nil, err
	}
	return &dynamodb.GetItemOutput{Item: maps.Clone(s.items[k])}, nil
}

// Query is refused (see Sink).
func (s *Sink) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, fmt.Errorf("Query: %w", errUnsupported)
}

// Scan is refused (see Sink).
func (s *Sink) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, fmt.Errorf("Scan: %w", errUnsupported)
}

// BatchGetItem is refused (see Sink).
func (s *Sink) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, fmt.Errorf("BatchGetItem: %w", errUnsupported)
}

// TransactGetItems is refused (see Sink).
func (s *Sink) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, fmt.Errorf("TransactGetItems: %w", errUnsupported)
}
