package accountpool

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// AddUser is AP-12 (main table, PutItem on user_id#<email>): a user without
// a lease, whose data is an empty map that CreateLease fills. An email
// already present is designs.ErrAlreadyExists and leaves that user as it was.
func (t Table) AddUser(ctx context.Context, email string) (User, error) {
	if !validEmail(email) {
		return User{}, fmt.Errorf("%s: user %q: %w: not an email", AddUserID, email, designs.ErrInvalidInput)
	}
	u := User{Email: email}
	item, err := attributevalue.MarshalMap(newUserItem(u))
	if err != nil {
		return User{}, fmt.Errorf("%s: user %s: encode: %w", AddUserID, email, err)
	}
	expr, err := expression.NewBuilder().WithCondition(isNew).Build()
	if err != nil {
		return User{}, fmt.Errorf("%s: build: %w", AddUserID, err)
	}
	_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 aws.String(t.Name),
		Item:                      item,
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	if designs.IsConditionFailed(err) {
		return User{}, fmt.Errorf("%s: user %s: %w", AddUserID, email, designs.ErrAlreadyExists)
	}
	if err != nil {
		return User{}, fmt.Errorf("%s: user %s: %w", AddUserID, email, err)
	}
	return u, nil
}

// GetUser is AP-09 (main table, GetItem on user_id#<email>): the user with
// the lease and account it holds, if any. An unknown email is
// designs.ErrNotFound.
func (t Table) GetUser(ctx context.Context, email string) (User, error) {
	if !validEmail(email) {
		return User{}, fmt.Errorf("%s: user %q: %w: not an email", GetUserID, email, designs.ErrInvalidInput)
	}
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(t.Name),
		Key:            key(UserKey(email)),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return User{}, fmt.Errorf("%s: user %s: %w", GetUserID, email, err)
	}
	if len(out.Item) == 0 {
		return User{}, fmt.Errorf("%s: user %s: %w", GetUserID, email, designs.ErrNotFound)
	}
	var it userItem
	if err := attributevalue.UnmarshalMap(out.Item, &it); err != nil {
		return User{}, fmt.Errorf("%s: user %s: decode: %w", GetUserID, email, err)
	}
	u := it.User
	u.Email = strings.TrimPrefix(it.PK, userPrefix)
	return u, nil
}
