package designs_test

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
)

// bookItem is a book as stored.
type bookItem struct {
	PK, SK string
	Title  string
}

// batchMemory serves BatchGetItem on the lint's in-memory table, which
// serves single-item calls only, as the set of GetItems a batch is. Like
// DynamoDB short of capacity, it answers at most perCall keys a call and
// hands the rest back as UnprocessedKeys.
type batchMemory struct {
	*memtable.Memory
	perCall, calls int
}

func (b *batchMemory) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	b.calls++
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}, UnprocessedKeys: map[string]types.KeysAndAttributes{}}
	for table, ka := range in.RequestItems {
		for i, key := range ka.Keys {
			if i == b.perCall {
				out.UnprocessedKeys[table] = types.KeysAndAttributes{Keys: ka.Keys[i:], ConsistentRead: ka.ConsistentRead}
				break
			}
			got, err := b.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: ka.ConsistentRead})
			if err != nil {
				return nil, err
			}
			if got.Item != nil {
				out.Responses[table] = append(out.Responses[table], got.Item)
			}
		}
	}
	return out, nil
}

// ExampleBatchGet reads several items in one pattern: the answer comes in
// the keys' order, with found saying which are stored, and the keys
// DynamoDB handed back unprocessed are sent again (with backoff) until
// none is left.
func ExampleBatchGet() {
	ctx := context.Background()
	db := &batchMemory{Memory: memtable.NewMemory(library.ItemSchema(), "library"), perCall: 2}
	for _, b := range []bookItem{{"BOOK#1", "BOOK#1", "Dune"}, {"BOOK#3", "BOOK#3", "Emma"}, {"BOOK#4", "BOOK#4", "Ulysses"}} {
		item, _ := attributevalue.MarshalMap(b)
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("library"), Item: item}); err != nil {
			fmt.Println(err)
		}
	}

	keys := []map[string]types.AttributeValue{
		library.Key("BOOK#4", "BOOK#4"), library.Key("BOOK#2", "BOOK#2"), library.Key("BOOK#1", "BOOK#1"),
	}
	books, found, err := designs.BatchGet[bookItem](ctx, db, "library", keys, false)
	for i, b := range books {
		fmt.Printf("key %d: found %t, %q\n", i, found[i], b.Title)
	}
	fmt.Println("BatchGetItem calls:", db.calls, "error:", err)
	// Output:
	// key 0: found true, "Ulysses"
	// key 1: found false, ""
	// key 2: found true, "Dune"
	// BatchGetItem calls: 2 error: <nil>
}
