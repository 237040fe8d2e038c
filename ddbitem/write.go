package ddbitem

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Write is one item change a request asks for: a put of a whole item, an
// update expression, a delete, or a transaction's condition check, each
// with its condition. PutItem, UpdateItem and DeleteItem make one, a
// TransactWriteItems one per action, a BatchWriteItem one per request.
type Write struct {
	Table     string
	Key       Item       // the item's primary key
	Put       Item       // a put: the whole new item
	Update    *Condition // an update: its UpdateExpression and placeholders
	Delete    bool
	Check     bool       // a ConditionCheck: changes nothing
	Condition *Condition // nil: unconditional
	// OldOnFailure says the request asked for the item as it stood when its
	// condition failed (ReturnValuesOnConditionCheckFailure ALL_OLD).
	OldOnFailure bool
}

// After returns the item the write leaves when it applies to old (nil: no
// item): the put item, the update expression applied to old (or to the item
// its key makes), nothing after a delete, old after a check.
func (w Write) After(old Item) (Item, error) {
	switch {
	case w.Put != nil:
		return w.Put, nil
	case w.Update != nil:
		return ApplyUpdate(old, w.Key, w.Update.Expr, w.Update.Names, w.Update.Values)
	case w.Delete:
		return nil, nil
	}
	return old, nil
}

// Holds reports whether the write's condition holds on old (no condition:
// it does).
func (w Write) Holds(old Item) (bool, error) {
	if w.Condition == nil {
		return true, nil
	}
	return w.Condition.Holds(old)
}

func condition(expr *string, names map[string]string, values map[string]types.AttributeValue) *Condition {
	if expr == nil {
		return nil
	}
	return &Condition{Expr: *expr, Names: names, Values: values}
}

func allOld(rv types.ReturnValuesOnConditionCheckFailure) bool {
	return rv == types.ReturnValuesOnConditionCheckFailureAllOld
}

// PutWrite is the write of a PutItem.
func (s Schema) PutWrite(in *dynamodb.PutItemInput) Write {
	return Write{Table: aws.ToString(in.TableName), Key: s.Key(in.Item), Put: in.Item,
		Condition:    condition(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues),
		OldOnFailure: allOld(in.ReturnValuesOnConditionCheckFailure)}
}

// UpdateWrite is the write of an UpdateItem.
func UpdateWrite(in *dynamodb.UpdateItemInput) Write {
	return Write{Table: aws.ToString(in.TableName), Key: in.Key,
		Update:       &Condition{Expr: aws.ToString(in.UpdateExpression), Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues},
		Condition:    condition(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues),
		OldOnFailure: allOld(in.ReturnValuesOnConditionCheckFailure)}
}

// DeleteWrite is the write of a DeleteItem.
func DeleteWrite(in *dynamodb.DeleteItemInput) Write {
	return Write{Table: aws.ToString(in.TableName), Key: in.Key, Delete: true,
		Condition:    condition(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues),
		OldOnFailure: allOld(in.ReturnValuesOnConditionCheckFailure)}
}

// TransactWrites are the writes of a TransactWriteItems, in action order.
func (s Schema) TransactWrites(items []types.TransactWriteItem) []Write {
	ws := make([]Write, len(items))
	for i, it := range items {
		switch {
		case it.Put != nil:
			p := it.Put
			ws[i] = s.PutWrite(&dynamodb.PutItemInput{TableName: p.TableName, Item: p.Item, ConditionExpression: p.ConditionExpression,
				ExpressionAttributeNames: p.ExpressionAttributeNames, ExpressionAttributeValues: p.ExpressionAttributeValues,
				ReturnValuesOnConditionCheckFailure: p.ReturnValuesOnConditionCheckFailure})
		case it.Update != nil:
			u := it.Update
			ws[i] = UpdateWrite(&dynamodb.UpdateItemInput{TableName: u.TableName, Key: u.Key, UpdateExpression: u.UpdateExpression,
				ConditionExpression: u.ConditionExpression, ExpressionAttributeNames: u.ExpressionAttributeNames,
				ExpressionAttributeValues: u.ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure: u.ReturnValuesOnConditionCheckFailure})
		case it.Delete != nil:
			d := it.Delete
			ws[i] = DeleteWrite(&dynamodb.DeleteItemInput{TableName: d.TableName, Key: d.Key, ConditionExpression: d.ConditionExpression,
				ExpressionAttributeNames: d.ExpressionAttributeNames, ExpressionAttributeValues: d.ExpressionAttributeValues,
				ReturnValuesOnConditionCheckFailure: d.ReturnValuesOnConditionCheckFailure})
		case it.ConditionCheck != nil:
			c := it.ConditionCheck
			ws[i] = Write{Table: aws.ToString(c.TableName), Key: c.Key, Check: true,
				Condition:    condition(c.ConditionExpression, c.ExpressionAttributeNames, c.ExpressionAttributeValues),
				OldOnFailure: allOld(c.ReturnValuesOnConditionCheckFailure)}
		}
	}
	return ws
}

// BatchWrites are the writes of a BatchWriteItem: table by table in name
// order, each table's requests in request order.
func (s Schema) BatchWrites(reqs map[string][]types.WriteRequest) []Write {
	var ws []Write
	for _, table := range slices.Sorted(maps.Keys(reqs)) {
		for _, r := range reqs[table] {
			switch {
			case r.PutRequest != nil:
				ws = append(ws, Write{Table: table, Key: s.Key(r.PutRequest.Item), Put: r.PutRequest.Item})
			case r.DeleteRequest != nil:
				ws = append(ws, Write{Table: table, Key: r.DeleteRequest.Key, Delete: true})
			}
		}
	}
	return ws
}
