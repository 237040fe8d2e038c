package endpoint

import (
	"context"
	"net/http"
	"net/url"

	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/designs"
)

// The endpoint's client to DynamoDB Local does per call only what Local
// reads: the SDK's user agent, recursion and invocation headers, its
// endpoint rules and its request signing cost CPU the endpoint takes from
// Local on a shared machine, and Local checks no signature. A client's
// call reaches Local with the client's own credentials headers (Local
// refuses a request with none, as it would straight); the endpoint's own
// calls (a table's description, the shadow's reads) with a placeholder.

// placeholderAuth signs the endpoint's own calls: Local reads the access
// key and checks no signature.
const placeholderAuth = "AWS4-HMAC-SHA256 Credential=ddbharness/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0000000000000000000000000000000000000000000000000000000000000000"

// credentialHeaders are the client's headers a call to Local carries.
var credentialHeaders = []string{"Authorization", "X-Amz-Date", "X-Amz-Security-Token"}

// lean takes out of s what Local does not read, sends each request to
// local's URL, and gives it its credentials headers. A middleware the SDK
// no longer has is left alone.
func lean(s *middleware.Stack, local string) error {
	for _, id := range []string{"ClientRequestID", "UserAgent", "RecursionDetection"} {
		s.Build.Remove(id)
	}
	for _, id := range []string{"DiscoverEndpoint", "ComputePayloadHash", "setLegacyContextSigningOptions", "Signing"} {
		s.Finalize.Remove(id)
	}
	base, err := url.Parse(local)
	if err != nil {
		return err
	}
	at := middleware.FinalizeMiddlewareFunc("ResolveEndpointV2", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
		if req, ok := in.Request.(*smithyhttp.Request); ok {
			req.URL.Scheme, req.URL.Host = base.Scheme, base.Host
			req.URL.Path = smithyhttp.JoinPath(base.Path, req.URL.Path)
		}
		return next.HandleFinalize(ctx, in)
	})
	if _, err := s.Finalize.Swap("ResolveEndpointV2", at); err != nil {
		if err := s.Finalize.Add(at, middleware.Before); err != nil {
			return err
		}
	}
	return s.Finalize.Add(middleware.FinalizeMiddlewareFunc("ddbharnessEndpointCredentials", credentials), middleware.After)
}

// credentials sets the request's credentials headers: the client's for
// its call, the placeholder for the endpoint's own.
func credentials(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	req, ok := in.Request.(*smithyhttp.Request)
	if !ok {
		return next.HandleFinalize(ctx, in)
	}
	got, _ := ctx.Value(answerKey{}).(*answer)
	if got == nil || designs.HarnessCall(ctx) {
		req.Header.Set("Authorization", placeholderAuth)
		return next.HandleFinalize(ctx, in)
	}
	for _, k := range credentialHeaders {
		setOrDelete(req.Header, k, got.from)
	}
	return next.HandleFinalize(ctx, in)
}

func setOrDelete(h http.Header, k string, from http.Header) {
	if v, ok := from[k]; ok {
		h[k] = v
		return
	}
	h.Del(k)
}
