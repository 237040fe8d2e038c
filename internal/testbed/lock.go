package testbed

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// lockTimeout is how DynamoDB Local's answer begins when a write waited
// too long for its lock, which it does on a machine too loaded to serve
// it; its message goes on to say the request would succeed on DynamoDB.
// The service itself never gives this answer.
var lockTimeout = []byte("This action timed out because it too long waiting for a lock")

// lockResends bounds how often one request is sent again after DynamoDB
// Local's lock timeout, each time after a longer pause.
const lockResends = 8

// resendLockTimeouts sends a request to DynamoDB Local again when Local
// answers it with its lock timeout. Nothing was done (the write never had
// its lock), so sending it again is what a real table would have answered
// in the first place; below the SDK's retryer, such a stall of the test
// bed neither reaches a pattern as an error of the design nor spends the
// SDK's retry quota, which a run's throttles need. Only a loopback
// endpoint's clients get it: a real table never gives this answer.
func resendLockTimeouts(s *middleware.Stack) error {
	return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("ddbharnessLocalLockTimeout",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			for resend := 0; ; resend++ {
				out, md, err := next.HandleDeserialize(ctx, in)
				req, okReq := in.Request.(*smithyhttp.Request)
				resp, okResp := out.RawResponse.(*smithyhttp.Response)
				if err != nil || !okReq || !okResp || resp.StatusCode != http.StatusInternalServerError || resend == lockResends || !isLockTimeout(resp) {
					return out, md, err
				}
				_ = resp.Body.Close()
				select {
				case <-ctx.Done():
					return out, md, ctx.Err()
				case <-time.After(time.Duration(resend+1) * 20 * time.Millisecond):
				}
				if err := req.RewindStream(); err != nil {
					return out, md, err
				}
			}
		}), middleware.After)
}

// isLockTimeout reads the start of resp's body for Local's lock timeout
// and puts back what it read, so that any other 500 reaches the SDK whole.
func isLockTimeout(resp *smithyhttp.Response) bool {
	head := make([]byte, 512)
	n, _ := io.ReadFull(resp.Body, head)
	head = head[:n]
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	return bytes.Contains(head, lockTimeout)
}

// readCloser reads from one reader and closes the body it came from.
type readCloser struct {
	io.Reader
	io.Closer
}
