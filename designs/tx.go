package designs

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Key is the primary key of an item of a table whose keys are strings; sk is
// ignored when the table has no sort key.
func (s Schema) Key(pk, sk string) map[string]types.AttributeValue {
	k := map[string]types.AttributeValue{s.PK: &types.AttributeValueMemberS{Value: pk}}
	if s.SK != "" {
		k[s.SK] = &types.AttributeValueMemberS{Value: sk}
	}
	return k
}

// Failure turns the old image of an item whose condition failed (nil when
// the item did not exist) into the domain error the failure stands for.
type Failure func(old map[string]types.AttributeValue) error

// Because is a Failure with one meaning whatever the item held.
func Because(err error) Failure {
	return func(map[string]types.AttributeValue) error { return err }
}

// AbsentOr tells a missing item (absent) from one in the wrong state
// (otherwise), from the image DynamoDB returns with the cancellation: one
// call, and no second read that could race the first.
func AbsentOr(absent, otherwise error) Failure {
	return func(old map[string]types.AttributeValue) error {
		if len(old) == 0 {
			return absent
		}
		return otherwise
	}
}

// Tx builds one TransactWriteItems request action by action. Each action
// names the Failure its condition stands for, so that a cancelled
// transaction maps back to the domain error of the action that failed. Every
// action asks for the old item on a failed condition (no extra capacity), so
// a Failure can look at it. The first build error sticks and is returned by
// Write.
type Tx struct {
	Table  string
	items  []types.TransactWriteItem
	onFail []Failure
	err    error
}

// Put writes item (a struct marshalled with attributevalue) if cond holds.
// An unset cond writes unconditionally; a nil Failure leaves the error as is.
func (tx *Tx) Put(item any, cond expression.ConditionBuilder, onFail Failure) {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		tx.fail(err)
		return
	}
	tx.add(cond, nil, onFail, func(e *expression.Expression) types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(tx.Table), Item: av,
			ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
	})
}

// Update applies update to the item at key if cond holds.
func (tx *Tx) Update(key map[string]types.AttributeValue, update expression.UpdateBuilder, cond expression.ConditionBuilder, onFail Failure) {
	tx.add(cond, &update, onFail, func(e *expression.Expression) types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(tx.Table), Key: key,
			UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
			ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
	})
}

// Delete removes the item at key if cond holds.
func (tx *Tx) Delete(key map[string]types.AttributeValue, cond expression.ConditionBuilder, onFail Failure) {
	tx.add(cond, nil, onFail, func(e *expression.Expression) types.TransactWriteItem {
		return types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(tx.Table), Key: key,
			ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
	})
}

// Check only tests cond on the item at key; the transaction fails without it.
func (tx *Tx) Check(key map[string]types.AttributeValue, cond expression.ConditionBuilder, onFail Failure) {
	tx.add(cond, nil, onFail, func(e *expression.Expression) types.TransactWriteItem {
		return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(tx.Table), Key: key,
			ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
	})
}

// Len is the number of actions so far.
func (tx *Tx) Len() int { return len(tx.items) }

// Write sends the transaction. It refuses, before calling DynamoDB, one with
// too many actions. A cancellation comes back as the domain error of the
// first failed action that has a Failure, joined with the cancellation; one
// cancelled for a transaction conflict is sent again (ConflictRetries), then
// is ErrTransactionConflict; other errors come back as they are. Each
// sending carries its own ClientRequestToken, which the SDK's retries keep.
func (tx *Tx) Write(ctx context.Context, db DB) error {
	if tx.err != nil {
		return tx.err
	}
	err := Transact(ctx, db, tx.items)
	failed, ok := FailedConditions(err)
	if !ok {
		return err
	}
	var tce *types.TransactionCanceledException
	errors.As(err, &tce) // FailedConditions found one
	for _, i := range failed {
		if tx.onFail[i] != nil {
			return errors.Join(tx.onFail[i](tce.CancellationReasons[i].Item), err)
		}
	}
	return err
}

// Transact sends items as one TransactWriteItems, as written: for a
// transaction built elsewhere (an imported model's command). It refuses,
// before calling DynamoDB, one with too many actions; one cancelled for a
// transaction conflict is sent again (ConflictRetries), then is
// ErrTransactionConflict; any other error comes back as it is. Each
// sending carries its own ClientRequestToken, which the SDK's retries keep.
func Transact(ctx context.Context, db DB, items []types.TransactWriteItem) error {
	if err := CheckTransactSize(len(items)); err != nil {
		return err
	}
	return retryConflicts(ctx, func(ctx context.Context) error {
		_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ClientRequestToken: newToken()})
		return err
	})
}

func (tx *Tx) add(cond expression.ConditionBuilder, update *expression.UpdateBuilder, onFail Failure,
	build func(*expression.Expression) types.TransactWriteItem) {
	if tx.err != nil {
		return
	}
	var e expression.Expression
	if cond.IsSet() || update != nil {
		b := expression.NewBuilder()
		if cond.IsSet() {
			b = b.WithCondition(cond)
		}
		if update != nil {
			b = b.WithUpdate(*update)
		}
		var err error
		if e, err = b.Build(); err != nil {
			tx.fail(err)
			return
		}
	}
	tx.items = append(tx.items, build(&e))
	tx.onFail = append(tx.onFail, onFail)
}

func (tx *Tx) fail(err error) {
	if tx.err == nil {
		tx.err = err
	}
}
