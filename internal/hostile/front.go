package hostile

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/bench/endpoint"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// The side effect a design suite imports this package for.
func init() { ddbtest.Hostile = front }

// front starts the process's endpoint of fault rules in front of local,
// DynamoDB's, with no rules until a spec's body aims the profile; seed is
// the fault seed verify gave (testbed.EnvHostile).
func front(local, seed string) (*ddbtest.Faults, error) {
	n, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("hostile: fault seed %q is not a whole number", seed)
	}
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	h := endpoint.New(endpoint.Config{Local: local, Off: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("hostile: listen on loopback: %w", err)
	}
	srv := endpoint.Server(h, endpoint.HeaderTimeout, endpoint.BodyTimeout)
	go srv.Serve(ln)
	return &ddbtest.Faults{
		Endpoint: "http://" + ln.Addr().String(),
		Quiet:    func() { h.Aim(nil) },
		Aim:      func() { h.Aim(fault.NewSet(n, rules...)) },
		Fired:    func() string { return fired(h.Faults()) },
		Status:   func() any { return h.Faults().Status() },
		Close: func() {
			srv.SetKeepAlivesEnabled(false)
			_ = srv.Close()
		},
	}, nil
}

// fired lists the rules of s that fired, with their hits: what a failed
// spec met.
func fired(s *fault.Set) string {
	var lines []string
	for _, r := range s.Status() {
		if r.Hits > 0 {
			lines = append(lines, fmt.Sprintf("%s (fired %d of %d calls matched)", r.Rule, r.Hits, r.Matched))
		}
	}
	if len(lines) == 0 {
		return "no fault rule fired"
	}
	return strings.Join(lines, "\n")
}
