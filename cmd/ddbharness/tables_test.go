package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// tables on an endpoint off this machine, without the opt-in, is refused
// before any request with this command's own fix: no "unset the
// variable", which tables needs, and no run's tables to create.
func TestTablesRefusesARemoteEndpointWithItsOwnFix(t *testing.T) {
	err := checkTablesEndpoint(testbed.Env{Endpoint: "http://user:pw@203.0.113.7:8000"}) // TEST-NET-3, no opt-in
	var bad failure.BadInput
	if !errors.As(err, &bad) {
		t.Fatalf("runTables = %v, want bad input", err)
	}
	msg := err.Error()
	for _, want := range []string{testbed.EnvAllowRemote + "=1", "list (and with -delete delete)", "http://***@203.0.113.7:8000"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	for _, not := range []string{"unset", "create, load", "pw"} {
		if strings.Contains(msg, not) {
			t.Errorf("message %q says %q", msg, not)
		}
	}
}
