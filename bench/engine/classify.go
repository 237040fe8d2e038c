package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/designs"
)

// Pseudo HTTP statuses of a call's vegeta Result: vegeta groups results by
// status, and counts 2xx and 3xx as successes, so a refusal, which the
// design answered, is one (vegeta's Success is the share answered) and
// every status from 400 up is an error.
const (
	StatusOK = 200
	// StatusRefused is a refusal: the design answered the call with an
	// outcome it expects (a condition failed, a domain rule said no, a key
	// taken, the item not stored). 299 is no status HTTP defines.
	StatusRefused   = 299
	StatusInvalid   = 400 // the pattern refused its input
	StatusNotFound  = 404 // a refusal for an item not stored, where the scenario counts refusals as errors
	StatusConflict  = 409 // the item changed concurrently: a transaction conflict after its retries, a lost optimistic lock
	StatusThrottled = 429 // DynamoDB throttled the call
	StatusError     = 500 // anything else
)

// A refusal is an outcome, not an error, as DynamoDB's own metrics count
// it: a failed conditional write is in ConditionalCheckFailedRequests and
// not in UserErrors, and an absent item is a GetItem answered without
// one. A design's ErrNotFound is one or the other (a condition on the
// item's existence, or a read that found nothing), so it is a refusal
// too. A conflict (ErrConflict, ErrTransactionConflict) stays an error:
// the call lost a race it would retry, and DynamoDB counts it apart again
// (TransactionConflict). A scenario may count a pattern's refusals as
// errors (workload.Scenario.RefusalsAsErrors; ClassifyAsError).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html (ConditionalCheckFailedRequests, UserErrors, TransactionConflict)

// categories are the designs' error categories and their statuses, with
// the status a refusal takes where its scenario counts it as an error. A
// pattern's error wraps at most one of them, either itself or through a
// design's own sentinel (a *designs.DomainError), whose text is the class:
// stable, unlike an SDK error's, which carries a request ID. No design's
// sentinel is listed here, so a design declares its own without touching
// bench.
var categories = []struct {
	err             error
	status, asError uint16
}{
	{designs.ErrInvalidInput, StatusInvalid, StatusInvalid},
	{designs.ErrNotFound, StatusRefused, StatusNotFound},
	{designs.ErrAlreadyExists, StatusRefused, StatusConflict},
	{designs.ErrConflict, StatusConflict, StatusConflict},
	{designs.ErrRefused, StatusRefused, StatusConflict},
}

// throttles are the error codes of DynamoDB refusing for capacity.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
var throttles = map[string]bool{
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"RequestLimitExceeded":                   true,
}

// throttledUnprocessed is the class of a call whose keys DynamoDB kept
// handing back, made once rather than per call.
var throttledUnprocessed = "throttled: " + designs.ErrUnprocessed.Error()

// Classify maps a pattern call's error to a pseudo status and a stable
// class text for vegeta: nil is 200 and "", a refusal StatusRefused.
func Classify(err error) (status uint16, class string) {
	status, class, _ = classify(err)
	return status, class
}

// ClassifyAsError is Classify for a pattern whose scenario counts its
// refusals as errors: a refusal keeps its class and takes the error status
// it would have as one, 404 for an item not stored and 409 for any other.
func ClassifyAsError(err error) (status uint16, class string) {
	status, class, asError := classify(err)
	if status == StatusRefused {
		status = asError
	}
	return status, class
}

// classify is Classify, with the status a refusal takes as an error.
func classify(err error) (status uint16, class string, asError uint16) {
	if err == nil {
		return StatusOK, "", StatusOK
	}
	for _, c := range categories {
		if errors.Is(err, c.err) {
			return c.status, domainClass(err, c.err), c.asError
		}
	}
	if errors.Is(err, designs.ErrUnprocessed) {
		// DynamoDB kept handing a batch's keys back: most often throttled
		// reads, which it answers so rather than with an error.
		return StatusThrottled, throttledUnprocessed, StatusThrottled
	}
	if designs.IsConditionFailed(err) {
		return StatusRefused, "condition failed", StatusConflict
	}
	if _, ok := designs.FailedConditions(err); ok {
		return StatusRefused, "transaction cancelled: condition failed", StatusConflict
	}
	status, class = classifyFailure(err)
	return status, class, status
}

// classifyFailure is Classify for an error that is no refusal.
func classifyFailure(err error) (status uint16, class string) {
	if designs.IsTransactionConflict(err) {
		return StatusConflict, "transaction conflict"
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		if designs.CancelledForCapacity(err) {
			return StatusThrottled, "throttled: transaction cancelled: " + cancellationCode(tce)
		}
		return StatusConflict, "transaction cancelled: " + cancellationCode(tce)
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		if throttles[api.ErrorCode()] {
			return StatusThrottled, "throttled: " + api.ErrorCode()
		}
		return StatusError, "dynamodb: " + api.ErrorCode()
	}
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return StatusError, "timeout"
	case errors.Is(err, context.Canceled):
		return StatusError, "cancelled"
	case errors.As(err, &netErr):
		return StatusError, "network error"
	}
	return StatusError, "other error"
}

// domainClass is the text of the design's own sentinel of category that err
// wraps (the first, for errors.As), else the category's own text.
func domainClass(err, category error) string {
	var d *designs.DomainError
	if errors.As(err, &d) && errors.Is(d, category) {
		return d.Error()
	}
	return category.Error()
}

// cancellationCode is the first reason a transaction gives that is not
// "None" (TransactionConflict, ThrottlingError, ...).
func cancellationCode(tce *types.TransactionCanceledException) string {
	for _, r := range tce.CancellationReasons {
		if r.Code != nil && *r.Code != "None" {
			return *r.Code
		}
	}
	return "unknown reason"
}

// serverFaults are DynamoDB's error codes for a failure on its side, which
// it answers with HTTP 500 or 503.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
var serverFaults = map[string]bool{
	"InternalServerError": true,
	"InternalFailure":     true,
	"ServiceUnavailable":  true,
}

// Infrastructure says whether a call's error is the test bed failing
// rather than the design answering, and names the cause in a few words:
// the endpoint refused or dropped the connection, answered with a 5xx, the
// run's table is gone, or the call timed out. A design's domain outcomes (a lost condition, out of
// stock), throttling, a 4xx answer and a call the run itself cancelled are
// not.
func Infrastructure(err error) (cause string, ok bool) {
	code, _ := Classify(err)
	return infrastructure(err, code)
}

// infrastructure is Infrastructure for an error already classified as
// code, so that a call's error is classified once.
func infrastructure(err error, code uint16) (cause string, ok bool) {
	if err == nil || code != StatusError || errors.Is(err, context.Canceled) {
		return "", false
	}
	var resp interface{ HTTPStatusCode() int } // the SDK's response errors
	if errors.As(err, &resp) && resp.HTTPStatusCode() >= 500 {
		var api smithy.APIError
		if errors.As(err, &api) && api.ErrorCode() != "" {
			return fmt.Sprintf("HTTP %d %s", resp.HTTPStatusCode(), api.ErrorCode()), true
		}
		return fmt.Sprintf("HTTP %d", resp.HTTPStatusCode()), true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch {
		case serverFaults[api.ErrorCode()]:
			return "dynamodb: " + api.ErrorCode(), true
		case api.ErrorCode() == "ResourceNotFoundException":
			// A design calls its run's table alone: that table is gone,
			// deleted under the run.
			return "the run's table is gone (ResourceNotFoundException)", true
		}
		return "", false // a 4xx: the call was wrong, not the test bed
	}
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset", true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed", true
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout", true
	case errors.As(err, &netErr):
		if netErr.Timeout() {
			return "timeout", true
		}
		return "network error", true
	}
	return "", false
}
