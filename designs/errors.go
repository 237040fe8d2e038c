package designs

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Categories of the outcomes of access patterns: answers a caller acts on,
// not faults. Patterns wrap a category, or a design's own error of one (see
// NewError), with the pattern ID and key; callers test with errors.Is, and
// bench gives each category its pseudo status.
var (
	// ErrInvalidInput is a call refused for its arguments, before any request.
	ErrInvalidInput = errors.New("invalid input")
	// ErrNotFound is an item the call needs that is not stored.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists is a create whose key is taken.
	ErrAlreadyExists = errors.New("already exists")
	// ErrConflict reports that an item changed between the read and the write
	// of a read-modify-write pattern; the caller may read again and retry.
	ErrConflict = errors.New("changed concurrently")
	// ErrRefused is a domain rule saying no: a unique value already taken, a
	// state that forbids the change, a stock too small. A design names each
	// of its rules with Refusal.
	ErrRefused = errors.New("refused")
)

// ErrTooManyActions is a transaction with more actions than DynamoDB allows
// (MaxTransactActions), refused before the call: an ErrInvalidInput.
var ErrTooManyActions = NewError(ErrInvalidInput, "transaction has too many actions")

// DomainError is a design's own sentinel: one named outcome of a category.
// Error is the sentinel's own text, so that a pattern's error reads
// "<pattern ID>: <key>: <text>" and bench can class it by that text, and
// errors.Is finds both the sentinel and its category.
type DomainError struct {
	category error
	text     string
}

// Error is the sentinel's text, without its category's.
func (e *DomainError) Error() string { return e.text }

// Unwrap returns the category, for errors.Is.
func (e *DomainError) Unwrap() error { return e.category }

// NewError declares a design's own sentinel of category (ErrInvalidInput,
// ErrNotFound, ErrAlreadyExists, ErrConflict or ErrRefused; bench classes
// any other as "other error"). Declare each once, as a package variable:
// errors.Is tells sentinels apart by identity, not by text.
func NewError(category error, text string) error {
	return &DomainError{category: category, text: text}
}

// Refusal declares a design's own sentinel of category ErrRefused, the
// domain rule it names refusing the call:
//
//	var ErrEmailTaken = designs.Refusal("email already taken")
func Refusal(text string) error { return NewError(ErrRefused, text) }

// MaxTransactActions is DynamoDB's limit on the actions of one
// transaction (ddbitem, where every limit is stated with its source), here
// for design packages, which import only designs.
const MaxTransactActions = ddbitem.MaxTransactActions

// CheckTransactSize refuses, before any call, a transaction DynamoDB would
// reject for its action count: ErrTooManyActions.
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

// CancelledForCapacity reports whether err is a transaction DynamoDB
// cancelled because some action found no capacity left (ThrottlingError,
// or ProvisionedThroughputExceeded on a provisioned table): refused before
// it did anything, it wrote nothing and costs nothing.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html (cancellation reasons)
func CancelledForCapacity(err error) bool {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return false
	}
	for _, r := range tce.CancellationReasons {
		if code := aws.ToString(r.Code); code == "ThrottlingError" || code == "ProvisionedThroughputExceeded" {
			return true
		}
	}
	return false
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
