package designs_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

func cancelled(codes ...string) error {
	reasons := make([]types.CancellationReason, len(codes))
	for i, c := range codes {
		reasons[i].Code = aws.String(c)
	}
	return &types.TransactionCanceledException{CancellationReasons: reasons}
}

func TestIsTransactionConflict(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"single-item write", &types.TransactionConflictException{}, true},
		{"transaction", cancelled("None", "TransactionConflict"), true},
		{"conflict and failed condition", cancelled("ConditionalCheckFailed", "TransactionConflict"), false},
		{"throttled transaction", cancelled("ThrottlingError", "None"), false},
		{"failed condition", &types.ConditionalCheckFailedException{}, false},
		{"nil", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := designs.IsTransactionConflict(c.err); got != c.want {
				t.Errorf("IsTransactionConflict(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
}

// conflictingDB cancels its first `conflicts` transactions for a conflict,
// then answers answer.
type conflictingDB struct {
	designs.DB
	conflicts int
	answer    error
	tokens    []string
	resent    []bool // each sending's ResentOnConflict
}

func (c *conflictingDB) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.tokens = append(c.tokens, aws.ToString(in.ClientRequestToken))
	c.resent = append(c.resent, designs.ResentOnConflict(ctx))
	if len(c.tokens) <= c.conflicts {
		return nil, cancelled("TransactionConflict")
	}
	return &dynamodb.TransactWriteItemsOutput{}, c.answer
}

func counterTx() *designs.Tx {
	tx := &designs.Tx{Table: "t"}
	tx.Update(library.Key("C", "C"), expression.Add(expression.Name("n"), expression.Value(1)), expression.ConditionBuilder{}, nil)
	return tx
}

func TestTxRetriesConflicts(t *testing.T) {
	db := &conflictingDB{conflicts: designs.ConflictRetries}
	if err := counterTx().Write(context.Background(), db); err != nil {
		t.Fatalf("after %d conflicts, Write = %v, want the last sending's success", designs.ConflictRetries, err)
	}
	if len(db.tokens) != designs.ConflictRetries+1 {
		t.Fatalf("sent %d times, want %d", len(db.tokens), designs.ConflictRetries+1)
	}
	seen := map[string]bool{}
	for _, tok := range db.tokens {
		if tok == "" || seen[tok] {
			t.Fatalf("tokens %q: want one of its own per sending (a conflict applied nothing)", db.tokens)
		}
		seen[tok] = true
	}
}

func TestTxGivesUpOnConflictsAsErrConflict(t *testing.T) {
	db := &conflictingDB{conflicts: designs.ConflictRetries + 1}
	err := counterTx().Write(context.Background(), db)
	if !errors.Is(err, designs.ErrTransactionConflict) || !errors.Is(err, designs.ErrConflict) || errors.Is(err, designs.ErrRefused) {
		t.Fatalf("Write = %v, want ErrTransactionConflict, an ErrConflict and no refusal", err)
	}
	if len(db.tokens) != designs.ConflictRetries+1 {
		t.Fatalf("sent %d times, want %d", len(db.tokens), designs.ConflictRetries+1)
	}
}

// TestTxMarksTheSendingsItWouldRepeat: what measures a run tells a write
// given up for a conflict (the last sending) from one sent again.
func TestTxMarksTheSendingsItWouldRepeat(t *testing.T) {
	db := &conflictingDB{conflicts: designs.ConflictRetries + 1}
	_ = counterTx().Write(context.Background(), db)
	want := make([]bool, designs.ConflictRetries+1)
	for i := range designs.ConflictRetries {
		want[i] = true
	}
	if !slices.Equal(db.resent, want) {
		t.Fatalf("ResentOnConflict per sending = %v, want %v: every sending but the last is sent again on a conflict", db.resent, want)
	}
	if designs.ResentOnConflict(context.Background()) {
		t.Fatal("a write no helper sends is marked as sent again")
	}
}

func TestTxDoesNotRetryOtherCancellations(t *testing.T) {
	db := &conflictingDB{answer: cancelled("ThrottlingError")}
	if err := counterTx().Write(context.Background(), db); !designs.CancelledForCapacity(err) || len(db.tokens) != 1 {
		t.Fatalf("Write = %v after %d sendings, want the throttled cancellation after one", err, len(db.tokens))
	}
}
