package memtable

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

var schema = ddbitem.Schema{PK: "PK", SK: "SK"}

func item(pk, n string) ddbitem.Item {
	return ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "A"}, "N": &types.AttributeValueMemberN{Value: n}}
}

func key(pk string) ddbitem.Item {
	return ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "A"}}
}

func put(pk, n string, cond string) types.TransactWriteItem {
	p := &types.Put{TableName: aws.String("t"), Item: item(pk, n)}
	if cond != "" {
		p.ConditionExpression = aws.String(cond)
	}
	return types.TransactWriteItem{Put: p}
}

func TestAFailedConditionWritesNothing(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(schema, "t")
	if _, err := m.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item("a", "1")}); err != nil {
		t.Fatal(err)
	}
	_, err := m.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item("a", "2"), ConditionExpression: aws.String("attribute_not_exists(PK)")})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("a put onto an existing item with attribute_not_exists: %v, want ConditionalCheckFailedException", err)
	}
	got, err := m.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key("a")})
	if err != nil || !ddbitem.Equal(got.Item, item("a", "1")) {
		t.Errorf("the item after the refused put: %v, %v; want the first put's", got.Item, err)
	}
}

func TestATransactionIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	var changes []Change
	m := NewMemory(schema, "t", OnChange(func(c Change) { changes = append(changes, c) }))
	if _, err := m.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item("a", "1")}); err != nil {
		t.Fatal(err)
	}
	_, err := m.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		put("b", "1", ""), put("a", "2", "attribute_not_exists(PK)"),
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("a transaction whose second condition fails: %v, want TransactionCanceledException", err)
	}
	if items := m.Items(); len(items) != 1 || !ddbitem.Equal(items[0], item("a", "1")) {
		t.Errorf("items after the cancelled transaction: %v; want only the first put's", items)
	}
	if len(changes) != 1 {
		t.Errorf("%d changes seen, want 1 (the first put): a cancelled transaction changes nothing", len(changes))
	}
	if _, err := m.Query(ctx, &dynamodb.QueryInput{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Query: %v, want ErrUnsupported", err)
	}
}
