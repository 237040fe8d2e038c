package ddbtest

import (
	"context"
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// HandBack is a designs.DB around a real client that counts BatchGetItem
// calls and, through Withhold, sends only some of a call's keys on and
// hands the rest back as UnprocessedKeys, as DynamoDB does when a table
// runs out of capacity or an answer passes 16 MB: a fault injector, not a
// mock; every key it sends is read by the client it wraps.
type HandBack struct {
	designs.DB
	// Withhold splits call's keys (calls count from 0) of one table; nil
	// sends every key.
	Withhold func(call int, keys []map[string]types.AttributeValue) (send, back []map[string]types.AttributeValue)
	// Answered, when set, is called as each call returns.
	Answered func(call int)

	mu    sync.Mutex
	sizes []int
}

// BatchGetItem sends what Withhold keeps and adds what it holds back to
// the answer's UnprocessedKeys.
func (h *HandBack) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	h.mu.Lock()
	call, n := len(h.sizes), 0
	for _, ka := range in.RequestItems {
		n += len(ka.Keys)
	}
	h.sizes = append(h.sizes, n)
	h.mu.Unlock()
	if h.Answered != nil {
		defer h.Answered(call)
	}
	req, held := *in, map[string]types.KeysAndAttributes{}
	req.RequestItems = maps.Clone(in.RequestItems)
	for table, ka := range in.RequestItems {
		if h.Withhold == nil {
			continue
		}
		send, back := h.Withhold(call, ka.Keys)
		sent := ka
		sent.Keys = send
		req.RequestItems[table] = sent
		if len(send) == 0 {
			delete(req.RequestItems, table) // DynamoDB refuses a table of no keys
		}
		if len(back) > 0 {
			ka.Keys = back
			held[table] = ka
		}
	}
	out := &dynamodb.BatchGetItemOutput{}
	if len(req.RequestItems) > 0 {
		var err error
		if out, err = h.DB.BatchGetItem(ctx, &req, opts...); err != nil {
			return out, err
		}
	}
	for table, ka := range held {
		if out.UnprocessedKeys == nil {
			out.UnprocessedKeys = map[string]types.KeysAndAttributes{}
		}
		ka.Keys = append(out.UnprocessedKeys[table].Keys, ka.Keys...)
		out.UnprocessedKeys[table] = ka
	}
	return out, nil
}

// Calls lists how many keys each BatchGetItem call named, in call order.
func (h *HandBack) Calls() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]int(nil), h.sizes...)
}
