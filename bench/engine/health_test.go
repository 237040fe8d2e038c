package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/designs"
)

func TestInfrastructure(t *testing.T) {
	answered := func(status int, err error) error { // as the SDK wraps an HTTP answer
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "GetItem", Err: &awshttp.ResponseError{
			ResponseError: &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status}}, Err: err}}}
	}
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: &net.OpError{Op: "connect", Err: syscall.ECONNREFUSED}}
	cases := []struct {
		name  string
		err   error
		cause string // "": not the test bed's
	}{
		{"success", nil, ""},
		{"connection refused", answered(0, dial), "connection refused"},
		{"connection reset", fmt.Errorf("read: %w", syscall.ECONNRESET), "connection reset"},
		{"a server error", answered(500, &smithy.GenericAPIError{Code: "InternalServerError"}), "HTTP 500 InternalServerError"},
		{"a server that is not DynamoDB", answered(501, &smithy.GenericAPIError{Code: "NotImplemented"}), "HTTP 501 NotImplemented"},
		{"a timeout", fmt.Errorf("AP-01: %w", context.DeadlineExceeded), "timeout"},
		{"a lost condition", answered(400, &types.ConditionalCheckFailedException{}), ""},
		{"throttling", answered(400, &types.ProvisionedThroughputExceededException{}), ""},
		{"a refused request", answered(400, &smithy.GenericAPIError{Code: "ValidationException"}), ""},
		{"the run's table deleted under it", answered(400, &types.ResourceNotFoundException{}), "the run's table is gone (ResourceNotFoundException)"},
		{"a design's refusal", designs.Refusal("out of stock"), ""},
		{"a call the run cancelled", fmt.Errorf("AP-01: %w", context.Canceled), ""},
		{"anything else", errors.New("boom"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cause, ok := Infrastructure(c.err)
			if cause != c.cause || ok != (c.cause != "") {
				t.Errorf("Infrastructure(%v) = %q %v, want %q", c.err, cause, ok, c.cause)
			}
		})
	}
}

func TestInfraWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	refused := errors.New("connection refused")
	type call struct {
		at    time.Duration
		infra bool
	}
	calls := func(from, every time.Duration, n int, infra bool) []call {
		var cs []call
		for i := range n {
			cs = append(cs, call{from + time.Duration(i)*every, infra})
		}
		return cs
	}
	cat := func(parts ...[]call) []call {
		var all []call
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	tests := []struct {
		name  string
		calls []call
		trips int // index of the call that stops the run; -1: none
	}{
		{"four failures are too few", calls(0, 10*time.Millisecond, 4, true), -1},
		{"five failures of five", calls(0, 10*time.Millisecond, 5, true), 4},
		{"a fifth is not more than a fifth", cat(calls(0, 10*time.Millisecond, 8, false), calls(80*time.Millisecond, 10*time.Millisecond, 2, true)), -1},
		{"two of nine is", cat(calls(0, 10*time.Millisecond, 7, false), calls(70*time.Millisecond, 10*time.Millisecond, 3, true)), 8},
		{"failures older than the window do not count", cat(calls(0, 10*time.Millisecond, 4, true),
			calls(time.Second, 10*time.Millisecond, 16, false), calls(1160*time.Millisecond, 0, 4, true)), -1},
		{"a streak of two seconds at one call a second", calls(0, time.Second, 3, true), 2},
		{"a success breaks the streak", cat(calls(0, time.Second, 2, true), calls(1500*time.Millisecond, 0, 1, false),
			calls(2*time.Second, time.Second, 2, true)), -1},
	}
	for _, tt := range tests {
		var w infraWindow
		tripped := -1
		for i, c := range tt.calls {
			if _, over := w.add(t0.Add(c.at), "connection refused", c.infra, refused); over && tripped < 0 {
				tripped = i
			}
		}
		if tripped != tt.trips {
			t.Errorf("%s: stopped at call %d, want %d", tt.name, tripped, tt.trips)
		}
	}
}
