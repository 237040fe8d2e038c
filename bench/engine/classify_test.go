package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/designs"
)

// Sentinels of a design bench has never heard of: Classify finds their
// status by category and their class by their own text, with no list to
// add them to.
var (
	errShelfFull    = designs.Refusal("shelf full")
	errNoSuchShelf  = designs.NewError(designs.ErrNotFound, "no such shelf")
	errShelfTooWide = designs.NewError(designs.ErrInvalidInput, "shelf too wide")
)

func TestClassify(t *testing.T) {
	sdk := func(err error) error { // as the SDK wraps a service error
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "PutItem", Err: err}
	}
	cancelled := func(code string) *types.TransactionCanceledException {
		return &types.TransactionCanceledException{Message: aws.String("Transaction cancelled, request id XYZ"),
			CancellationReasons: []types.CancellationReason{{Code: aws.String("None")}, {Code: aws.String(code)}}}
	}
	cases := []struct {
		name   string
		err    error
		status uint16
		class  string
	}{
		{"success", nil, 200, ""},
		{"a pattern's missing item", fmt.Errorf("AP-06: client 1: %w", designs.ErrNotFound), 299, "not found"},
		{"refused input", fmt.Errorf("AP-03: %w: no ID", designs.ErrInvalidInput), 400, "invalid input"},
		{"a design's refusal joined with its cancellation", fmt.Errorf("AP-02: %w",
			errors.Join(errShelfFull, sdk(cancelled("ConditionalCheckFailed")))), 299, "shelf full"},
		{"a design's own kind of missing item", fmt.Errorf("AP-04: shelf 9: %w", errNoSuchShelf), 299, "no such shelf"},
		{"a design's own kind of refused input", fmt.Errorf("AP-05: %w: 9 m", errShelfTooWide), 400, "shelf too wide"},
		{"a transaction too big to send", fmt.Errorf("AP-03: %w", designs.CheckTransactSize(designs.MaxTransactActions+1)), 400,
			"transaction has too many actions"},
		{"a taken key", fmt.Errorf("AP-01: shelf 1: %w", designs.ErrAlreadyExists), 299, "already exists"},
		{"a concurrent change", fmt.Errorf("AP-06: shelf 1: %w", errors.Join(designs.ErrConflict, sdk(cancelled("ConditionalCheckFailed")))), 409,
			"changed concurrently"},
		{"a refusal no design named", fmt.Errorf("AP-07: %w", designs.ErrRefused), 299, "refused"},
		{"a lost condition the pattern did not name", sdk(&types.ConditionalCheckFailedException{}), 299, "condition failed"},
		{"a cancelled transaction's lost condition", sdk(cancelled("ConditionalCheckFailed")), 299, "transaction cancelled: condition failed"},
		{"a transaction conflict", sdk(cancelled("TransactionConflict")), 409, "transaction conflict"},
		{"a single-item write in conflict", sdk(&types.TransactionConflictException{}), 409, "transaction conflict"},
		{"a design's conflict after its retries", fmt.Errorf("AP-10: user 1: %w", errors.Join(designs.ErrTransactionConflict, sdk(cancelled("TransactionConflict")))), 409, "transaction conflict"},
		{"a transaction cancelled for throttling", sdk(cancelled("ThrottlingError")), 429, "throttled: transaction cancelled: ThrottlingError"},
		{"a transaction over provisioned throughput", sdk(cancelled("ProvisionedThroughputExceeded")), 429, "throttled: transaction cancelled: ProvisionedThroughputExceeded"},
		{"a batch's keys still unprocessed after its retries", fmt.Errorf("AP-08: shelf 1: %w: 3 of 40 keys after 5 retries", designs.ErrUnprocessed), 429,
			"throttled: keys left unprocessed"},
		{"throttling", sdk(&types.ProvisionedThroughputExceededException{Message: aws.String("request id XYZ")}), 429,
			"throttled: ProvisionedThroughputExceededException"},
		{"an on-demand table's throttling", sdk(&types.ThrottlingException{Message: aws.String("request id XYZ")}), 429, "throttled: ThrottlingException"},
		{"the account's quota", sdk(&types.RequestLimitExceeded{Message: aws.String("request id XYZ")}), 429, "throttled: RequestLimitExceeded"},
		{"another service error, without its request ID", sdk(&smithy.GenericAPIError{Code: "ValidationException", Message: "id XYZ"}), 500,
			"dynamodb: ValidationException"},
		{"a timeout", fmt.Errorf("AP-01: %w", context.DeadlineExceeded), 500, "timeout"},
		{"a network failure", sdk(&net.OpError{Op: "dial", Err: errors.New("connection refused")}), 500, "network error"},
		{"anything else", errors.New("boom"), 500, "other error"},
	}
	// asError is each refusal's status where the scenario counts refusals
	// as errors (ClassifyAsError); any other keeps its status.
	asError := map[string]uint16{"a pattern's missing item": 404, "a design's own kind of missing item": 404,
		"a design's refusal joined with its cancellation": 409, "a taken key": 409, "a refusal no design named": 409,
		"a lost condition the pattern did not name": 409, "a cancelled transaction's lost condition": 409}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, class := Classify(c.err)
			if status != c.status || class != c.class {
				t.Errorf("Classify(%v) = %d %q, want %d %q", c.err, status, class, c.status, c.class)
			}
			want := cmp.Or(asError[c.name], c.status)
			if status, class := ClassifyAsError(c.err); status != want || class != c.class {
				t.Errorf("ClassifyAsError(%v) = %d %q, want %d %q", c.err, status, class, want, c.class)
			}
			if refused, failed := c.status == StatusRefused, Failed(c.status); refused && failed || (c.status != StatusOK && !refused && !failed) {
				t.Errorf("Classify(%v) = %d: refused %v, failed %v; want one of them", c.err, c.status, refused, failed)
			}
		})
	}
}
