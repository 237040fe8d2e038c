package mcp

import (
	"context"
	"errors"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
)

// Result is what a model's access pattern does to the sample data, as
// its spec expects it: a read's items (in order, unless Unordered), or a
// write's keys with their items afterwards (nil: no item), the samples
// untouched when its condition fails.
type Result struct {
	Items     []map[string]types.AttributeValue
	Unordered bool
	Keys      []map[string]types.AttributeValue
	After     []map[string]types.AttributeValue
	Fails     bool
}

// Expect runs call c on items, a table of schema's samples as the
// design stores them, as DynamoDB would.
func Expect(c *Call, schema ddbitem.Schema, items []ddbitem.Item) (Result, error) {
	if c.Index != "" {
		if _, ok := schema.Index(c.Index); !ok {
			return Result{}, Untranslatable("the table has no index %q", c.Index)
		}
	}
	find := func(key ddbitem.Item) ddbitem.Item {
		for _, it := range items {
			if ddbitem.SameKey(it, key) {
				return it
			}
		}
		return nil
	}
	var r Result
	switch c.Op {
	case designs.GetItem, designs.BatchGetItem, designs.TransactGetItems:
		r.Unordered = c.Op == designs.BatchGetItem
		for _, a := range c.Actions {
			it, err := project(find(a.Key), a.Projection, a.Names)
			if err != nil {
				return r, err
			}
			if it != nil || c.Op != designs.BatchGetItem { // a get keeps its place, nil where no item
				r.Items = append(r.Items, it)
			}
		}
		return r, nil
	case designs.Query, designs.Scan:
		var got []ddbitem.Item
		if c.Op == designs.Query {
			var err error
			got, err = schema.Range(items, ddbitem.KeyRange{Index: c.Index, Key: ddbitem.Condition{Expr: c.KeyCond, Names: c.Names, Values: c.Values}, Forward: !c.Backward})
			if err != nil {
				return r, Untranslatable("its key condition: %v", err)
			}
		} else {
			r.Unordered = true
			for _, it := range items {
				if e := entryOn(schema, c.Index, it); e != nil {
					got = append(got, e)
				}
			}
			if c.Limit > 0 && int(c.Limit) < len(got) {
				return r, Untranslatable("a Scan with --limit reads the first items in DynamoDB's hash order, which the samples cannot tell")
			}
		}
		if c.Limit > 0 && int(c.Limit) < len(got) { // the limit counts items read, before the filter
			got = got[:c.Limit]
		}
		for _, it := range got {
			ok, err := ddbitem.Condition{Expr: c.Filter, Names: c.Names, Values: c.Values}.Holds(it)
			if err != nil {
				return r, Untranslatable("its filter: %v", err)
			}
			if !ok {
				continue
			}
			if it, err = project(it, c.Projection, c.Names); err != nil {
				return r, err
			}
			r.Items = append(r.Items, it)
		}
		return r, nil
	}
	mem := memtable.NewMemory(schema, "table")
	ctx := context.Background()
	for _, it := range items {
		if _, err := mem.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("table"), Item: it}); err != nil {
			return r, err
		}
	}
	for _, a := range c.Actions {
		key := a.Key
		if key == nil {
			key = schema.Key(a.Item)
		}
		if !slices.ContainsFunc(r.Keys, func(k map[string]types.AttributeValue) bool { return ddbitem.SameKey(k, key) }) {
			r.Keys = append(r.Keys, key)
		}
	}
	err := c.write(ctx, mem, "table")
	var cf *types.ConditionalCheckFailedException
	var tc *types.TransactionCanceledException
	switch {
	case errors.As(err, &cf) || errors.As(err, &tc):
		r.Fails = true
	case err != nil:
		return r, Untranslatable("on the sample data: %v", err)
	}
	for _, k := range r.Keys {
		var it ddbitem.Item
		mem.Locked(func(t *memtable.Table) { it, _, _ = t.Lookup(k) })
		r.After = append(r.After, it)
	}
	return r, nil
}

// entryOn is item as index holds it ("": the table), nil when it is not
// in the index.
func entryOn(s ddbitem.Schema, index string, item ddbitem.Item) ddbitem.Item {
	if index == "" {
		return item
	}
	return s.EntryOf(index, item)
}

// project keeps the attributes a projection expression names.
func project(item ddbitem.Item, expr string, names map[string]string) (ddbitem.Item, error) {
	if item == nil || expr == "" {
		return item, nil
	}
	keep, err := topLevelNames(expr, names)
	if err != nil {
		return nil, err
	}
	out := ddbitem.Item{}
	for _, n := range keep {
		if v, ok := item[n]; ok {
			out[n] = v
		}
	}
	return out, nil
}

// write sends c's write to db, table named table: the request the
// generated function makes.
func (c *Call) write(ctx context.Context, db designs.DB, table string) error {
	name := aws.String(table)
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return aws.String(s)
	}
	var err error
	switch a := c.Actions[0]; c.Op {
	case designs.PutItem:
		_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: a.Item, ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values})
	case designs.UpdateItem:
		_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: name, Key: a.Key, UpdateExpression: str(a.Update), ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values})
	case designs.DeleteItem:
		_, err = db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: name, Key: a.Key, ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values})
	case designs.BatchWriteItem:
		var ws []types.WriteRequest
		for _, a := range c.Actions {
			if a.Kind == "Put" {
				ws = append(ws, types.WriteRequest{PutRequest: &types.PutRequest{Item: a.Item}})
			} else {
				ws = append(ws, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: a.Key}})
			}
		}
		_, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: ws}})
	case designs.TransactWriteItems:
		var ts []types.TransactWriteItem
		for _, a := range c.Actions {
			switch a.Kind {
			case "Put":
				ts = append(ts, types.TransactWriteItem{Put: &types.Put{TableName: name, Item: a.Item, ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values}})
			case "Update":
				ts = append(ts, types.TransactWriteItem{Update: &types.Update{TableName: name, Key: a.Key, UpdateExpression: str(a.Update), ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values}})
			case "Delete":
				ts = append(ts, types.TransactWriteItem{Delete: &types.Delete{TableName: name, Key: a.Key, ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values}})
			case "Check":
				ts = append(ts, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: name, Key: a.Key, ConditionExpression: str(a.Cond), ExpressionAttributeNames: a.Names, ExpressionAttributeValues: a.Values}})
			default:
				return Untranslatable("a %s in a write transaction", a.Kind)
			}
		}
		_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: ts})
	}
	return err
}

// MaxItems is the most items one call of a read returns, for the lint: a
// query or scan's limit (it reads one page then), a batch or
// transaction's keys; 0 where it follows every page.
func (c *Call) MaxItems() int {
	switch c.Op {
	case designs.Query, designs.Scan:
		return int(c.Limit)
	case designs.BatchGetItem, designs.TransactGetItems:
		return len(c.Actions)
	}
	return 0
}

// MaxActions is a transaction's action count, for the lint.
func (c *Call) MaxActions() int {
	if c.Op == designs.TransactWriteItems || c.Op == designs.TransactGetItems {
		return len(c.Actions)
	}
	return 0
}
