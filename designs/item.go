package designs

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The single-item calls every design makes the same way. Each returns the
// SDK's error as it is and a domain sentinel unwrapped, so that the caller
// wraps either with its pattern ID and key, as it does its own errors. A
// write refused for a transaction conflict is sent again (ConflictRetries),
// then is ErrTransactionConflict.

// IsNew is the condition of a write that creates an item: nothing is stored
// at its key yet. Every item carries the partition key, so testing that one
// attribute tells whether the item exists.
func (s Schema) IsNew() expression.ConditionBuilder {
	return expression.AttributeNotExists(expression.Name(s.PK))
}

// IsStored is the condition of a write that changes or removes an item: an
// item is stored at its key, so the write cannot create a half-built one.
func (s Schema) IsStored() expression.ConditionBuilder {
	return expression.AttributeExists(expression.Name(s.PK))
}

// PutNew writes item (a struct marshalled with attributevalue) only if its
// key is free: one conditional PutItem, so of any number of concurrent
// creates of one key exactly one wins. A taken key is ErrAlreadyExists.
func PutNew(ctx context.Context, db DB, table string, s Schema, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	return conditional(ctx, s.IsNew(), ErrAlreadyExists, func(ctx context.Context, expr expression.Expression) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                 aws.String(table),
			Item:                      av,
			ConditionExpression:       expr.Condition(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
		})
		return err
	})
}

// Get reads the item at key into T with one GetItem; consistent asks for a
// strongly consistent read (a full read unit per 4 KB instead of half). A
// missing item is ErrNotFound.
func Get[T any](ctx context.Context, db DB, table string, key map[string]types.AttributeValue, consistent bool) (T, error) {
	var v T
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(table),
		Key:            key,
		ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return v, err
	}
	if len(out.Item) == 0 {
		return v, ErrNotFound
	}
	if err := attributevalue.UnmarshalMap(out.Item, &v); err != nil {
		return v, fmt.Errorf("unmarshal: %w", err)
	}
	return v, nil
}

// Update applies update to the item at key if cond holds (an unset cond:
// always) and returns the item as stored afterwards, unmarshalled into T. A
// lost condition comes back as the SDK's ConditionalCheckFailedException
// (IsConditionFailed); it carries the item as it was, nil when there was
// none, so a caller can tell a missing item from one in the wrong state
// without a second read. Asking for that image costs no capacity.
func Update[T any](ctx context.Context, db DB, table string, key map[string]types.AttributeValue,
	update expression.UpdateBuilder, cond expression.ConditionBuilder) (T, error) {
	var v T
	b := expression.NewBuilder().WithUpdate(update)
	if cond.IsSet() {
		b = b.WithCondition(cond)
	}
	expr, err := b.Build()
	if err != nil {
		return v, fmt.Errorf("build: %w", err)
	}
	var out *dynamodb.UpdateItemOutput
	err = retryConflicts(ctx, func(ctx context.Context) (err error) {
		out, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           aws.String(table),
			Key:                                 key,
			UpdateExpression:                    expr.Update(),
			ConditionExpression:                 expr.Condition(),
			ExpressionAttributeNames:            expr.Names(),
			ExpressionAttributeValues:           expr.Values(),
			ReturnValues:                        types.ReturnValueAllNew,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		return err
	})
	if err != nil {
		return v, err
	}
	if err := attributevalue.UnmarshalMap(out.Attributes, &v); err != nil {
		return v, fmt.Errorf("unmarshal: %w", err)
	}
	return v, nil
}

// DeleteStored removes the item at key with one DeleteItem that holds only
// if the item exists, so a caller can tell a delete from a repeat: a missing
// item is ErrNotFound.
func DeleteStored(ctx context.Context, db DB, table string, s Schema, key map[string]types.AttributeValue) error {
	return conditional(ctx, s.IsStored(), ErrNotFound, func(ctx context.Context, expr expression.Expression) error {
		_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 aws.String(table),
			Key:                       key,
			ConditionExpression:       expr.Condition(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
		})
		return err
	})
}

// conditional sends a write whose condition is cond, again while it meets
// a transaction conflict; a condition that does not hold is lost.
func conditional(ctx context.Context, cond expression.ConditionBuilder, lost error, send func(context.Context, expression.Expression) error) error {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	err = retryConflicts(ctx, func(ctx context.Context) error { return send(ctx, expr) })
	if IsConditionFailed(err) {
		return lost
	}
	return err
}
