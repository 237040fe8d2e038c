package shop

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// maxNameLen bounds names, which go into sort keys (at most 1,024 bytes).
const maxNameLen = 256

// putNew writes item only if its primary key is free: a conditional
// PutItem, designs.ErrAlreadyExists when taken.
func putNew(ctx context.Context, t Table, id designs.PatternID, what string, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return fmt.Errorf("%s: marshal: %w", id, err)
	}
	expr, err := expression.NewBuilder().WithCondition(isNew).Build()
	if err != nil {
		return fmt.Errorf("%s: build: %w", id, err)
	}
	_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 aws.String(t.Name),
		Item:                      av,
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	if designs.IsConditionFailed(err) {
		return fmt.Errorf("%s: %s: %w", id, what, designs.ErrAlreadyExists)
	}
	if err != nil {
		return fmt.Errorf("%s: %s: %w", id, what, err)
	}
	return nil
}

// checkNamed validates a category or brand: a name that fits a sort key,
// and the ID and time rules every entity shares.
func checkNamed(id, name string, created, updated time.Time) error {
	if name == "" || len(name) > maxNameLen {
		return fmt.Errorf("%w: name must have 1 to %d bytes", designs.ErrInvalidInput, maxNameLen)
	}
	return checkEntity(id, created, updated)
}
