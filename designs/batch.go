package designs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// ErrUnprocessed is a BatchGet that DynamoDB still handed keys back to
// after BatchGetRetries retries: it had no capacity for them, or its 16 MB
// answer was full each time. Nothing the call read is returned; the caller
// may try again later.
var ErrUnprocessed = errors.New("keys left unprocessed")

// BatchGetRetries is how many times BatchGet sends again the keys a
// BatchGetItem handed back as UnprocessedKeys; AWS advises retrying them
// with exponential backoff, since they are most often throttled reads.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
const BatchGetRetries = 5

// batchBackoff starts at a longest wait of 50 ms: at most 1.55 s over all
// retries, about a second of a partition's capacity coming back.
var batchBackoff = Backoff{Base: 50 * time.Millisecond}

// BatchGet reads the items at keys of table into T with BatchGetItem, at
// most ddbitem.MaxBatchGet keys a call, and returns them in keys' order:
// found[i] says whether the item at keys[i] is stored, and items[i] is its
// value (T's zero value when it is not). consistent asks for strongly
// consistent reads. Keys DynamoDB hands back unprocessed are sent again,
// with backoff, then the call fails with ErrUnprocessed naming how many
// stayed. Every key must name the same key attributes; a key named twice is
// refused with ErrInvalidInput before any call, as DynamoDB would refuse
// the request.
func BatchGet[T any](ctx context.Context, db DB, table string, keys []map[string]types.AttributeValue, consistent bool) (items []T, found []bool, err error) {
	at, ks, err := batchKeyIDs(keys)
	if err != nil {
		return nil, nil, err
	}
	items, found = make([]T, len(keys)), make([]bool, len(keys))
	for chunk := range slices.Chunk(keys, ddbitem.MaxBatchGet) {
		read, err := batchGetAll(ctx, db, table, chunk, consistent)
		if err != nil {
			return nil, nil, err
		}
		for _, item := range read {
			id, _ := ks.KeyID(item)
			i, ok := at[id]
			if !ok {
				return nil, nil, fmt.Errorf("BatchGetItem answered an item whose key %q none of the keys names", id)
			}
			if err := attributevalue.UnmarshalMap(item, &items[i]); err != nil {
				return nil, nil, fmt.Errorf("key %d: unmarshal: %w", i, err)
			}
			found[i] = true
		}
	}
	return items, found, nil
}

// batchGetAll reads keys (at most MaxBatchGet) until none is left
// unprocessed, retrying with exponential backoff and full jitter.
func batchGetAll(ctx context.Context, db DB, table string, keys []map[string]types.AttributeValue, consistent bool) ([]map[string]types.AttributeValue, error) {
	var read []map[string]types.AttributeValue
	pending := keys
	for retry := 0; ; retry++ {
		out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			table: {Keys: pending, ConsistentRead: aws.Bool(consistent)},
		}})
		if err != nil {
			return nil, err
		}
		read = append(read, out.Responses[table]...)
		pending = out.UnprocessedKeys[table].Keys
		if len(pending) == 0 {
			return read, nil
		}
		if retry == BatchGetRetries {
			return nil, fmt.Errorf("%w: %d of %d keys after %d retries", ErrUnprocessed, len(pending), len(keys), BatchGetRetries)
		}
		if err := batchBackoff.Wait(ctx, retry); err != nil {
			return nil, fmt.Errorf("%w: %d of %d keys when waiting to retry: %w", ErrUnprocessed, len(pending), len(keys), err)
		}
	}
}

// batchKeyIDs maps each key's ID (ddbitem.Schema.KeyID over the key
// attributes of the first) to its place in keys, and refuses keys
// BatchGetItem cannot take: no attribute or more than two, one not naming
// the same attributes as the first, a value no key can have, a key named
// twice.
func batchKeyIDs(keys []map[string]types.AttributeValue) (at map[string]int, s ddbitem.Schema, err error) {
	if len(keys) == 0 {
		return nil, s, nil
	}
	attrs := slices.Sorted(maps.Keys(keys[0]))
	if len(attrs) == 0 || len(attrs) > 2 {
		return nil, s, fmt.Errorf("%w: key 0 names %d attributes: a key is the table's partition key and, if it has one, its sort key", ErrInvalidInput, len(attrs))
	}
	s.PK = attrs[0]
	if len(attrs) == 2 {
		s.SK = attrs[1]
	}
	first := map[string]int{}
	for i, k := range keys {
		id, ok := s.KeyID(k)
		if !ok || len(k) != len(attrs) {
			return nil, s, fmt.Errorf("%w: key %d does not name the key attributes %s of key 0 with string, number or binary values: give every key the table's key attributes and no others",
				ErrInvalidInput, i, strings.Join(attrs, ", "))
		}
		if j, dup := first[id]; dup {
			return nil, s, fmt.Errorf("%w: keys %d and %d are the same key: DynamoDB refuses a BatchGetItem that names a key twice: drop the repeat", ErrInvalidInput, j, i)
		}
		first[id] = i
	}
	return first, s, nil
}
