package endpoint

import (
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// Stats counts what the endpoint answered: in total, and in the second
// the progress line is about.
type Stats struct {
	mu         sync.Mutex
	total, sec counts
	keys       map[string]int // "table/key": data-plane calls this second
}

// counts is one stretch's calls.
type counts struct{ Requests, Passed, Undecided, Throttled, Conflicts int64 }

// Totals is the run's counts so far.
func (h *Handler) Totals() (requests, passed, throttled, conflicts int64) {
	h.stats.mu.Lock()
	defer h.stats.mu.Unlock()
	c := h.stats.total
	return c.Requests, c.Passed, c.Throttled, c.Conflicts
}

// Undecided is how many data-plane calls passed through to DynamoDB
// Local undecided so far (undecided).
func (h *Handler) Undecided() int64 {
	h.stats.mu.Lock()
	defer h.stats.mu.Unlock()
	return h.stats.total.Undecided
}

// Line is the progress line of the second since the last Line, and
// starts the next; "" when no call came.
func (h *Handler) Line() string {
	s := &h.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	c, keys := s.sec, s.keys
	s.sec, s.keys = counts{}, nil
	if c.Requests == 0 && c.Passed == 0 && c.Undecided == 0 {
		return ""
	}
	line := fmt.Sprintf("requests %s, throttled %s, conflicts %s, passed through %s", figure.Thousands(c.Requests), figure.Thousands(c.Throttled), figure.Thousands(c.Conflicts), figure.Thousands(c.Passed))
	if c.Undecided > 0 {
		line += fmt.Sprintf(", data-plane calls undecided %s", figure.Thousands(c.Undecided))
	}
	hot, n := "", 0
	for k, m := range keys {
		if m > n || m == n && k < hot {
			hot, n = k, m
		}
	}
	if n > 0 {
		line += fmt.Sprintf(", hottest key %q (%d calls)", hot, n)
	}
	return line
}

// passed counts a call passed through as sent: a data-plane call the
// limits should have decided (undecided: PartiQL the endpoint cannot map
// to its items) apart from the others.
func (s *Stats) passed(undecided bool) {
	s.mu.Lock()
	if undecided {
		s.total.Undecided++
		s.sec.Undecided++
	} else {
		s.total.Passed++
		s.sec.Passed++
	}
	s.mu.Unlock()
}

// count counts one emulated call, throttled (refused for the limits, or
// with items unprocessed) or refused for a transaction conflict, and the
// partition key values it named ("table/value", partitionKeys).
func (s *Stats) count(keys []string, throttled, conflict bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range []*counts{&s.total, &s.sec} {
		c.Requests++
		if throttled {
			c.Throttled++
		}
		if conflict {
			c.Conflicts++
		}
	}
	if s.keys == nil {
		s.keys = map[string]int{}
	}
	for _, k := range keys {
		s.keys[k]++
	}
}

func unprocessed(out smithy.Serializable) bool {
	switch o := out.(type) {
	case *dynamodb.BatchWriteItemOutput:
		return len(o.UnprocessedItems) > 0
	case *dynamodb.BatchGetItemOutput:
		return len(o.UnprocessedKeys) > 0
	}
	return false
}

// partitionKeys is "table/value" of each partition key value a call
// names, for the hottest key.
func partitionKeys(t *table, in any) []string {
	pks := []string{t.schema.PK}
	var items []ddbitem.Item
	var table string
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		table, items = aws.ToString(in.TableName), []ddbitem.Item{in.Key}
	case *dynamodb.PutItemInput:
		table, items = aws.ToString(in.TableName), []ddbitem.Item{in.Item}
	case *dynamodb.UpdateItemInput:
		table, items = aws.ToString(in.TableName), []ddbitem.Item{in.Key}
	case *dynamodb.DeleteItemInput:
		table, items = aws.ToString(in.TableName), []ddbitem.Item{in.Key}
	case *dynamodb.QueryInput:
		table = aws.ToString(in.TableName)
		s, index := t.schema.ItemSchema(), aws.ToString(in.IndexName)
		if part, ok := s.QueryPartition(index, ddbitem.Condition{Expr: aws.ToString(in.KeyConditionExpression),
			Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}); ok {
			pks, items = s.PartitionAttrs(index), []ddbitem.Item{part}
		}
	case *dynamodb.BatchWriteItemInput:
		for _, w := range t.schema.ItemSchema().BatchWrites(in.RequestItems) {
			table, items = w.Table, append(items, w.Key)
		}
	case *dynamodb.BatchGetItemInput:
		for name, ka := range in.RequestItems {
			table, items = name, append(items, ka.Keys...)
		}
	case *dynamodb.TransactWriteItemsInput:
		for _, w := range t.schema.ItemSchema().TransactWrites(in.TransactItems) {
			table, items = w.Table, append(items, w.Key)
		}
	case *dynamodb.TransactGetItemsInput:
		for _, g := range in.TransactItems {
			if g.Get != nil {
				table, items = aws.ToString(g.Get.TableName), append(items, g.Get.Key)
			}
		}
	}
	var out []string
	for _, it := range items {
		if v := ddbitem.PartitionText(pks, it); v != "" {
			out = append(out, table+"/"+v)
		}
	}
	return out
}
