package testnet

import (
	"net/http"
	"sync"
)

// Doer sends an HTTP request: what the SDK calls an HTTP client.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Gate is an HTTP client that holds each request until the spec opens it:
// a request it holds is in flight, for whatever watches the client's
// calls, as long as the spec likes. Entered receives once per request
// that reaches it.
type Gate struct {
	next    Doer
	Entered chan struct{}
	open    chan struct{}
	once    sync.Once
}

// NewGate returns a closed gate in front of next.
func NewGate(next Doer) *Gate {
	return &Gate{next: next, Entered: make(chan struct{}, 1), open: make(chan struct{})}
}

// Do holds r until Release (or r's context ends), then sends it on.
func (g *Gate) Do(r *http.Request) (*http.Response, error) {
	g.Entered <- struct{}{}
	select {
	case <-g.open:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	return g.next.Do(r)
}

// Release lets every held request, and every later one, through.
func (g *Gate) Release() { g.once.Do(func() { close(g.open) }) }
