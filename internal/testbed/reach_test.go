package testbed

import (
	"errors"
	"strings"
	"testing"
)

func TestReachDecidesForEveryCommand(t *testing.T) {
	for _, c := range []struct {
		name, endpoint, from string
		allow, remote        bool
		says                 []string // in the refusal; nil: allowed
	}{
		{"loopback", "http://127.0.0.1:8000", EnvEndpoint, false, false, nil},
		{"localhost", "http://localhost:8000", EnvEndpoint, false, false, nil},
		{"remote with the opt-in", "https://dynamodb.eu-west-1.amazonaws.com", EnvEndpoint, true, true, nil},
		{"remote without it, from a variable", "http://u:secret@10.0.0.5:8000", EnvEndpoint, false, true,
			[]string{EnvEndpoint + "=http://***@10.0.0.5:8000", EnvAllowRemote + "=1", "unset " + EnvEndpoint}},
		{"remote without it, from a client", "https://dynamodb.eu-west-1.amazonaws.com", "bench's client endpoint", false, true,
			[]string{"bench's client endpoint https://dynamodb.eu-west-1.amazonaws.com", EnvAllowRemote + "=1", "point it at DynamoDB Local"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			remote, err := Env{AllowRemote: c.allow}.Reach(c.endpoint, c.from)
			if remote != c.remote {
				t.Errorf("remote = %v, want %v", remote, c.remote)
			}
			var re *RemoteError
			switch {
			case c.says == nil && err != nil:
				t.Errorf("refused: %v", err)
			case c.says != nil && !errors.As(err, &re):
				t.Fatalf("err = %v, want a *RemoteError", err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("%q shows the endpoint's password", err)
			}
		})
	}
}
