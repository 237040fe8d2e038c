package endpoint

import (
	"net/http"
	"time"
)

// The endpoint's own bounds on a client's pace, so that a request whose
// headers or body never arrive does not hold a connection for minutes:
// AWS does not document DynamoDB's, and these are the endpoint's own,
// far above what a request on loopback takes.
const (
	HeaderTimeout = 10 * time.Second // to read a request's headers
	BodyTimeout   = 60 * time.Second // to read a whole request, body included
	IdleTimeout   = 2 * time.Minute  // a kept-alive connection waiting for its next request
)

// Server is an HTTP server of h with the endpoint's bounds: read
// (headers, then the whole request) within the given times, idle
// connections closed after IdleTimeout.
func Server(h http.Handler, header, body time.Duration) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: header, ReadTimeout: body, IdleTimeout: IdleTimeout}
}
