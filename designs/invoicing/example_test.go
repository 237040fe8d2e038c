package invoicing_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// ExampleTable_CreateClient writes a client with a designs.Tx on DynamoDB
// Local: the client item and its email item go in one transaction, each
// only if new. When a condition fails DynamoDB cancels the whole
// transaction, with a reason per action; the pattern answers with the
// sentinel of the first action that failed, and nothing is written.
func ExampleTable_CreateClient() {
	ctx := context.Background()
	db, err := ddbtest.ExampleDB()
	if err != nil {
		fmt.Println(err)
		return
	}
	t := invoicing.Table{DB: db, Name: designs.TableName(invoicing.Design.Name, "example")}
	if err := designs.CreateTable(ctx, db, invoicing.Schema, t.Name); err != nil {
		fmt.Println(err)
		return
	}
	defer designs.DeleteTable(ctx, db, t.Name)

	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	ada := invoicing.Client{ID: designs.NewID(at), Name: "Ada", Email: "ada@example.com", CreatedAt: at}
	fmt.Println("ada:", t.CreateClient(ctx, ada))

	// reasons lists the codes DynamoDB gave each action, in order.
	reasons := func(err error) []string {
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			return nil
		}
		var codes []string
		for _, r := range tce.CancellationReasons {
			codes = append(codes, aws.ToString(r.Code))
		}
		return codes
	}
	bob := invoicing.Client{ID: designs.NewID(at), Name: "Bob", Email: ada.Email, CreatedAt: at}
	err = t.CreateClient(ctx, bob)
	fmt.Println("bob, with ada's email:", reasons(err), "email taken:", errors.Is(err, invoicing.ErrEmailTaken))
	_, err = t.ViewClientRecentInvoices(ctx, bob.ID, 5, "")
	fmt.Println("  bob stored:", !errors.Is(err, designs.ErrNotFound))

	err = t.CreateClient(ctx, ada)
	fmt.Println("ada again:", reasons(err), "already exists:", errors.Is(err, designs.ErrAlreadyExists))
	// Output:
	// ada: <nil>
	// bob, with ada's email: [None ConditionalCheckFailed] email taken: true
	//   bob stored: false
	// ada again: [ConditionalCheckFailed ConditionalCheckFailed] already exists: true
}
