package designs

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithyrand "github.com/aws/smithy-go/rand"
)

// ErrTransactionConflict is a write DynamoDB refused because another
// request was working on one of its items at the same time, still refused
// after ConflictRetries retries: an ErrConflict, which the caller may retry.
// Nothing of the refused write was applied.
var ErrTransactionConflict = NewError(ErrConflict, "transaction conflict")

// ConflictRetries is how many times a write refused for a transaction
// conflict is sent again before ErrTransactionConflict. The SDK's retryer
// does not retry TransactionConflictException or a cancelled transaction;
// AWS advises the caller to.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html (transaction conflict handling)
const ConflictRetries = 3

// conflictBackoff starts at a longest wait of 10 ms: a conflict lasts as
// long as the other request's round trip, milliseconds.
var conflictBackoff = Backoff{Base: 10 * time.Millisecond}

// IsTransactionConflict reports whether err is DynamoDB refusing a write
// for a request in flight on one of its items: TransactionConflictException
// for a single-item write, a TransactionCanceledException whose reasons
// include TransactionConflict (and no failed condition) for a transaction.
func IsTransactionConflict(err error) bool {
	var tce *types.TransactionConflictException
	if errors.As(err, &tce) {
		return true
	}
	var cancelled *types.TransactionCanceledException
	if !errors.As(err, &cancelled) {
		return false
	}
	conflict := false
	for _, r := range cancelled.CancellationReasons {
		switch aws.ToString(r.Code) {
		case "TransactionConflict":
			conflict = true
		case "None", "":
		default:
			return false // a failed condition or a throttle says more
		}
	}
	return conflict
}

// retryConflicts calls send until it ends other than in a transaction
// conflict, at most ConflictRetries times again, waiting between calls. A
// conflict wrote nothing, so sending again cannot apply a write twice.
// Every sending but the last carries ResentOnConflict in its context.
func retryConflicts(ctx context.Context, send func(context.Context) error) error {
	again := context.WithValue(ctx, resentKey{}, true)
	sending := func(i int) context.Context { // after i sendings
		if i < ConflictRetries {
			return again
		}
		return ctx
	}
	err := send(sending(0))
	for i := 0; i < ConflictRetries && IsTransactionConflict(err); i++ {
		if werr := conflictBackoff.Wait(ctx, i); werr != nil {
			return errors.Join(ErrTransactionConflict, err, werr)
		}
		err = send(sending(i + 1))
	}
	if IsTransactionConflict(err) {
		return errors.Join(ErrTransactionConflict, err)
	}
	return err
}

type resentKey struct{}

// ResentOnConflict reports whether a write sent with ctx is sent again if
// DynamoDB refuses it for a transaction conflict: false for the last
// sending, and for a write no helper here sends. What measures a run
// (bench/emulate) tells by it a write given up (denied: its demand not
// served) from one the next sending serves.
func ResentOnConflict(ctx context.Context) bool { return ctx.Value(resentKey{}) != nil }

// newToken is a TransactWriteItems ClientRequestToken: the SDK sends the
// same one on each of its retries, so a transaction whose answer was lost
// and that the SDK sends again is applied once.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html (ClientRequestToken)
func newToken() *string {
	id, err := smithyrand.NewUUID(smithyrand.Reader).GetUUID()
	if err != nil {
		return nil // the SDK fills in its own
	}
	return &id
}
