package designs

import (
	"context"
	"errors"
	"math/rand/v2"
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

// conflictBackoff is the first retry's longest wait, doubled at each retry,
// with full jitter: a conflict lasts as long as the other request's round
// trip, milliseconds.
const conflictBackoff = 10 * time.Millisecond

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
func retryConflicts(ctx context.Context, send func() error) error {
	err := send()
	for i := 0; i < ConflictRetries && IsTransactionConflict(err); i++ {
		if backoff(ctx, conflictBackoff, i) != nil {
			return errors.Join(ErrTransactionConflict, err)
		}
		err = send()
	}
	if IsTransactionConflict(err) {
		return errors.Join(ErrTransactionConflict, err)
	}
	return err
}

// backoff waits before retry number retry (0, 1, ...): a time drawn below
// base<<retry (exponential backoff, full jitter), or until ctx ends, whose
// error it then returns. A context already ended does not wait at all.
func backoff(ctx context.Context, base time.Duration, retry int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := time.NewTimer(time.Duration(rand.Int64N(int64(base << retry))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

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
