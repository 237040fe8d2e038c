package testbed

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// localAnswers serves a PutItem: the first stalls answers are DynamoDB
// Local's lock timeout, or other's 500 when other is set; then {}. It
// counts the requests and checks each carries the whole item.
func localAnswers(t *testing.T, stalls int, other string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"PK":{"S":"k1"}`) {
			t.Errorf("request %d came without its item: %s", calls.Load()+1, body)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if int(calls.Add(1)) <= stalls {
			w.WriteHeader(http.StatusInternalServerError)
			msg := string(lockTimeout) + ". This request will succeed in actual DynamoDB API"
			if other != "" {
				msg = other
			}
			io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","Message":"`+msg+`"}`)
			return
		}
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func put(c *dynamodb.Client) error {
	_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("t"),
		Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "k1"}}})
	return err
}

// noSDKRetries leaves every resend to the middleware under test.
func noSDKRetries(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }

func TestALocalLockTimeoutIsSentAgainUntilAnswered(t *testing.T) {
	srv, calls := localAnswers(t, 3, "")
	if err := put(NewClient(srv.URL, Env{}, noSDKRetries)); err != nil {
		t.Fatalf("three lock timeouts, then an answer: %v", err)
	}
	if got := calls.Load(); got != 4 {
		t.Fatalf("requests sent: got %d, want 4 (three stalls and the answer)", got)
	}
}

func TestALocalLockTimeoutIsSentAgainABoundedNumberOfTimes(t *testing.T) {
	srv, calls := localAnswers(t, 100, "")
	err := put(NewClient(srv.URL, Env{}, noSDKRetries))
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "InternalServerError" || !strings.Contains(api.ErrorMessage(), string(lockTimeout)) {
		t.Fatalf("past its resends the client must give Local's own answer, got %v", err)
	}
	if got := calls.Load(); got != lockResends+1 {
		t.Fatalf("requests sent: got %d, want %d", got, lockResends+1)
	}
}

func TestAnyOther500ReachesTheClientWhole(t *testing.T) {
	srv, calls := localAnswers(t, 1, "Internal server error")
	err := put(NewClient(srv.URL, Env{}, noSDKRetries))
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "InternalServerError" || api.ErrorMessage() != "Internal server error" {
		t.Fatalf("another 500 must reach the client as it was answered, got %v", err)
	}
	if got := calls.Load(); got != 1 {
		t.Fatalf("requests sent: got %d, want 1: only Local's lock timeout is sent again", got)
	}
}
