package endpoint

import (
	"errors"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// TestShortClientIsBuilt checks that the SDK still gives the short stack
// what it takes from it (its validation of every operation of
// designs.DB), so that a table's calls do not fall back to the SDK
// client's stack unseen; and that an input the SDK refuses is refused
// before the wire, as the SDK refuses it.
func TestShortClientIsBuilt(t *testing.T) {
	sdk := testbed.Client("http://127.0.0.1:1", func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	c := newShortClient(sdk, http.DefaultClient)
	if c == nil {
		t.Fatal("no short client: the SDK's stack no longer has what it takes")
	}
	for _, d := range shortOps {
		if c.ops[d.name] == nil {
			t.Errorf("%s: no stack", d.name)
		}
	}
	_, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{})
	if err == nil {
		t.Fatal("a GetItem without its table and key was sent")
	}
	var invalid smithy.InvalidParamsError
	if !errors.As(err, &invalid) {
		t.Errorf("a GetItem without its table and key: %v, want the SDK's validation error", err)
	}
}
