package endpoint

import (
	"net/http"
	"os"
	"runtime"
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

// SetProcs sets how many cores this process's Go code runs on at once
// (runtime.GOMAXPROCS) for serving an endpoint, unless the GOMAXPROCS
// environment variable sets it: a quarter of the machine's, at least
// one, and returns it. The endpoint shares the machine with DynamoDB
// Local and the clients, and each call through it is a chain of hand-offs
// (read, decide, send, read, answer): with a core idle, Go's scheduler
// wakes a thread to look for work at every hand-off, which cost more CPU
// than the second core earned: on two cores, one core for the endpoint
// took less CPU a call and let more calls through
// (docs/performance.md).
func SetProcs() int {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0)
	}
	n := max(1, runtime.GOMAXPROCS(0)/4)
	runtime.GOMAXPROCS(n)
	return n
}
