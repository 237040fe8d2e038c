package designs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// library is a small design's table, for the example.
var library = designs.Schema{PK: "PK", SK: "SK"}

// ErrBookOut is the library design's own refusal, declared as a design
// declares its sentinels.
var ErrBookOut = designs.Refusal("book already out")

// loanItem is a loan as stored.
type loanItem struct {
	PK, SK string
	Book   string
}

// borrow is a pattern: one transaction marks the book out, if it is on the
// shelf, and writes the reader's loan, if new. Each action names what a
// failure of its own condition means.
func borrow(ctx context.Context, db designs.DB, book, reader string) error {
	tx := designs.Tx{Table: "library"}
	onShelf := expression.Name("Status").Equal(expression.Value("on shelf"))
	tx.Update(library.Key("BOOK#"+book, "BOOK#"+book),
		expression.Set(expression.Name("Status"), expression.Value("out")),
		library.IsStored().And(onShelf),
		designs.AbsentOr(designs.ErrNotFound, ErrBookOut)) // no book, or a book not on the shelf
	tx.Put(loanItem{PK: "READER#" + reader, SK: "LOAN#" + book, Book: book},
		library.IsNew(), designs.Because(designs.ErrAlreadyExists))
	if err := tx.Write(ctx, db); err != nil {
		return fmt.Errorf("AP-07: book %s: %w", book, err)
	}
	return nil
}

// fakeDB stands in for DynamoDB in the example. It evaluates no
// expression: an action on a partition key listed in lose loses its
// condition, and the transaction is cancelled as DynamoDB cancels it, one
// reason per action, with the item as stored (nil: no item) for the actions
// that asked for it. The nil DB it embeds fails any other call.
type fakeDB struct {
	designs.DB
	lose map[string]map[string]types.AttributeValue
	sent []types.TransactWriteItem // the actions of the last call
}

func (f *fakeDB) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	f.sent = in.TransactItems
	reasons := make([]types.CancellationReason, len(in.TransactItems))
	cancelled := false
	for i, a := range in.TransactItems {
		reasons[i].Code = aws.String("None")
		if old, ok := f.lose[pkOf(a)]; ok {
			reasons[i] = types.CancellationReason{Code: aws.String("ConditionalCheckFailed"), Item: old}
			cancelled = true
		}
	}
	if cancelled {
		return nil, &types.TransactionCanceledException{CancellationReasons: reasons,
			Message: aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]")}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// pkOf is the partition key an action writes or checks.
func pkOf(a types.TransactWriteItem) string {
	var key map[string]types.AttributeValue
	switch {
	case a.Put != nil:
		key = a.Put.Item
	case a.Update != nil:
		key = a.Update.Key
	case a.Delete != nil:
		key = a.Delete.Key
	case a.ConditionCheck != nil:
		key = a.ConditionCheck.Key
	}
	pk, _ := key[library.PK].(*types.AttributeValueMemberS)
	if pk == nil {
		return ""
	}
	return pk.Value
}

// ExampleTx builds a pattern's transaction and maps a failed condition of
// one of its actions back to that action's sentinel.
func ExampleTx() {
	ctx := context.Background()
	db := &fakeDB{lose: map[string]map[string]types.AttributeValue{
		"BOOK#2": {"PK": &types.AttributeValueMemberS{Value: "BOOK#2"}, "Status": &types.AttributeValueMemberS{Value: "out"}},
		"BOOK#3": nil, // no such book
	}}

	fmt.Println("book 1:", borrow(ctx, db, "1", "ada"))
	for _, a := range db.sent {
		switch {
		case a.Update != nil:
			fmt.Println("  Update", pkOf(a), "if", aws.ToString(a.Update.ConditionExpression),
				"then", strings.TrimSpace(aws.ToString(a.Update.UpdateExpression)))
		case a.Put != nil:
			fmt.Println("  Put", pkOf(a), "if", aws.ToString(a.Put.ConditionExpression))
		}
	}

	// The update's condition fails: the error is its action's sentinel,
	// joined with the cancellation.
	err := borrow(ctx, db, "2", "ada")
	first, _, _ := strings.Cut(err.Error(), "\n")
	fmt.Println("book 2:", first)
	var tce *types.TransactionCanceledException
	fmt.Println("  is ErrBookOut:", errors.Is(err, ErrBookOut), "is ErrRefused:", errors.Is(err, designs.ErrRefused),
		"has the cancellation:", errors.As(err, &tce))
	var refusal *designs.DomainError
	if errors.As(err, &refusal) {
		fmt.Printf("  sentinel text: %q\n", refusal.Error())
	}

	// The book is not stored: the same action's Failure says ErrNotFound.
	err = borrow(ctx, db, "3", "ada")
	fmt.Println("book 3: is ErrNotFound:", errors.Is(err, designs.ErrNotFound), "is ErrBookOut:", errors.Is(err, ErrBookOut))
	// Output:
	// book 1: <nil>
	//   Update BOOK#1 if (attribute_exists (#0)) AND (#1 = :0) then SET #1 = :1
	//   Put READER#ada if attribute_not_exists (#0)
	// book 2: AP-07: book 2: book already out
	//   is ErrBookOut: true is ErrRefused: true has the cancellation: true
	//   sentinel text: "book already out"
	// book 3: is ErrNotFound: true is ErrBookOut: false
}
