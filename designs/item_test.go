package designs_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

var stubSchema = designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "GSI1", PK: "G1PK", SK: "G1SK"}}}

// stubDB answers Query like DynamoDB with Limit: a page of at most Limit
// items after ExclusiveStartKey, and a LastEvaluatedKey whenever the page is
// full, even when it ends the results. Its single-item calls lose their
// condition or find nothing. The embedded nil DB fails any other call.
type stubDB struct {
	designs.DB
	items  []map[string]types.AttributeValue // one partition, in SK order
	limits []int32                           // Limit of each Query
}

func (s *stubDB) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	s.limits = append(s.limits, aws.ToInt32(in.Limit))
	start := 0
	if in.ExclusiveStartKey != nil {
		for i, it := range s.items {
			if sk(it) == sk(in.ExclusiveStartKey) {
				start = i + 1
			}
		}
	}
	end := min(start+int(aws.ToInt32(in.Limit)), len(s.items))
	out := &dynamodb.QueryOutput{Items: s.items[start:end]}
	if end-start == int(aws.ToInt32(in.Limit)) {
		out.LastEvaluatedKey = map[string]types.AttributeValue{"PK": out.Items[end-start-1]["PK"], "SK": out.Items[end-start-1]["SK"]}
	}
	return out, nil
}

func (s *stubDB) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, &types.ConditionalCheckFailedException{}
}

func (s *stubDB) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, &types.ConditionalCheckFailedException{}
}

func (s *stubDB) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{}, nil
}

func sk(item map[string]types.AttributeValue) string {
	s, _ := item["SK"].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func stubItems(n int) []map[string]types.AttributeValue {
	items := make([]map[string]types.AttributeValue, n)
	for i := range items {
		items[i] = map[string]types.AttributeValue{"PK": str("P"), "SK": str(fmt.Sprintf("S%02d", i)),
			"G1PK": str("G"), "G1SK": str(fmt.Sprintf("G%02d", i)), "Name": str("n")}
	}
	return items
}

func TestQueryPageLooksAhead(t *testing.T) {
	tests := []struct {
		total, size int
		want        []int // page sizes
	}{
		{0, 3, []int{0}},
		{5, 2, []int{2, 2, 1}},
		{4, 2, []int{2, 2}}, // DynamoDB alone would add an empty third page
		{5, 5, []int{5}},
		{5, 9, []int{5}},
	}
	for _, tt := range tests {
		db := &stubDB{items: stubItems(tt.total)}
		var got []int
		var after designs.Cursor
		for range 10 {
			items, next, err := stubSchema.QueryPage(context.Background(), db, designs.PageQuery{
				Table: "t", Key: expression.Key("PK").Equal(expression.Value("P")), Size: tt.size, After: after})
			if err != nil {
				t.Fatalf("QueryPage(total %d, size %d) error %v", tt.total, tt.size, err)
			}
			got = append(got, len(items))
			if after = next; next == "" {
				break
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("QueryPage(total %d, size %d) pages = %v, want %v", tt.total, tt.size, got, tt.want)
		}
		if db.limits[0] != int32(tt.size+1) {
			t.Errorf("QueryPage(size %d) Limit = %d, want %d", tt.size, db.limits[0], tt.size+1)
		}
	}
}

func TestQueryPageCursorHoldsIndexKey(t *testing.T) {
	db := &stubDB{items: stubItems(3)}
	_, next, err := stubSchema.QueryPage(context.Background(), db, designs.PageQuery{
		Table: "t", Index: "GSI1", Key: expression.Key("G1PK").Equal(expression.Value("G")), Size: 1})
	if err != nil {
		t.Fatalf("QueryPage(GSI1) error %v", err)
	}
	key, err := next.Decode()
	if err != nil {
		t.Fatalf("Cursor(%q).Decode() error %v", next, err)
	}
	want := map[string]string{"PK": "P", "SK": "S00", "G1PK": "G", "G1SK": "G00"}
	if len(key) != len(want) {
		t.Errorf("QueryPage(GSI1) cursor key = %v, want %v", key, want)
	}
	for name, v := range want {
		if !equalAV(key[name], str(v)) {
			t.Errorf("QueryPage(GSI1) cursor key[%s] = %#v, want %q", name, key[name], v)
		}
	}
}

func TestQueryPageRefusesBadInput(t *testing.T) {
	for _, q := range []designs.PageQuery{{Size: 0}, {Size: 1, After: "!!!"}} {
		if _, _, err := stubSchema.QueryPage(context.Background(), &stubDB{}, q); !errors.Is(err, designs.ErrInvalidInput) {
			t.Errorf("QueryPage(size %d, after %q) error = %v, want ErrInvalidInput", q.Size, q.After, err)
		}
	}
}

func TestSingleItemOutcomes(t *testing.T) {
	ctx, db, key := context.Background(), &stubDB{}, stubSchema.Key("P", "S")
	if err := designs.PutNew(ctx, db, "t", stubSchema, struct{ PK, SK string }{"P", "S"}); !errors.Is(err, designs.ErrAlreadyExists) {
		t.Errorf("PutNew(lost condition) = %v, want ErrAlreadyExists", err)
	}
	if err := designs.DeleteStored(ctx, db, "t", stubSchema, key); !errors.Is(err, designs.ErrNotFound) {
		t.Errorf("DeleteStored(lost condition) = %v, want ErrNotFound", err)
	}
	if _, err := designs.Get[map[string]any](ctx, db, "t", key, true); !errors.Is(err, designs.ErrNotFound) {
		t.Errorf("Get(missing) = %v, want ErrNotFound", err)
	}
}
