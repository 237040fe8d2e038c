package invoicing

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// isNew and isStored are the existence conditions the writes here use.
var (
	isNew    = expression.AttributeNotExists(expression.Name(Schema.PK))
	isStored = expression.AttributeExists(expression.Name(Schema.PK))
)

// CreateAccount is AP-01 (main table, PutItem): the account is a singleton,
// so a conditional put makes it exactly once. A second create, with any
// email, gets designs.ErrAlreadyExists.
func (t Table) CreateAccount(ctx context.Context, a Account) error {
	if a.Email == "" || a.Name == "" {
		return fmt.Errorf("%s: account: %w: name and email are required", CreateAccountID, designs.ErrInvalidInput)
	}
	item, err := attributevalue.MarshalMap(accountItem{keys{AccountKey(), AccountKey(), typeAccount}, a})
	if err != nil {
		return fmt.Errorf("%s: marshal: %w", CreateAccountID, err)
	}
	expr, err := expression.NewBuilder().WithCondition(isNew).Build()
	if err != nil {
		return fmt.Errorf("%s: build: %w", CreateAccountID, err)
	}
	_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 aws.String(t.Name),
		Item:                      item,
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	if designs.IsConditionFailed(err) {
		return fmt.Errorf("%s: account: %w", CreateAccountID, designs.ErrAlreadyExists)
	}
	if err != nil {
		return fmt.Errorf("%s: account: %w", CreateAccountID, err)
	}
	return nil
}
