package designs

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Domain outcomes of access patterns. Patterns wrap them with the pattern ID
// and key; callers test with errors.Is.
var (
	ErrNotFound            = errors.New("not found")
	ErrAlreadyExists       = errors.New("already exists")
	ErrEmailTaken          = errors.New("email already taken")
	ErrInvoiceNumberTaken  = errors.New("invoice number already taken")
	ErrAccountNotAvailable = errors.New("account not available")
	ErrLeaseNotActive      = errors.New("lease not active")
	ErrUserHasLease        = errors.New("user already holds a lease")
	ErrInvalidInput        = errors.New("invalid input")
	ErrTooManyActions      = errors.New("transaction has too many actions")
)

// MaxTransactActions is the most actions one TransactWriteItems or
// TransactGetItems request may hold.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-dynamodb-transactions
const MaxTransactActions = 100

// CheckTransactSize refuses, before any call, a transaction DynamoDB would
// reject for its action count.
func CheckTransactSize(actions int) error {
	if actions > MaxTransactActions {
		return fmt.Errorf("%w: %d actions, DynamoDB allows %d per transaction", ErrTooManyActions, actions, MaxTransactActions)
	}
	return nil
}

// IsConditionFailed reports whether a single-item write lost its condition.
func IsConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

// FailedConditions returns the positions of the actions whose condition
// failed when a transaction was cancelled, and false for any other error.
// DynamoDB lists one reason per action, in request order, "None" for the
// actions that did not cause the cancellation.
func FailedConditions(err error) ([]int, bool) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false
	}
	var failed []int
	for i, r := range tce.CancellationReasons {
		if r.Code != nil && *r.Code == "ConditionalCheckFailed" {
			failed = append(failed, i)
		}
	}
	return failed, len(failed) > 0
}

// ErrConflict reports that an item changed between the read and the write of
// a read-modify-write pattern; the caller may read again and retry.
var ErrConflict = errors.New("changed concurrently")
