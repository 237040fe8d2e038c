package verify

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/failure"
)

func TestCheckRaceDetectorRefusesWhatTheRaceDetectorLacks(t *testing.T) {
	tests := []struct{ name, env, value, want string }{
		{"no C compiler", "CC", "no-such-cc-for-verify", "no C compiler (no-such-cc-for-verify) is on PATH"},
		{"cgo off", "CGO_ENABLED", "0", "CGO_ENABLED=0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			err := checkRaceDetector(context.Background())
			var bad failure.BadInput
			if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("checkRaceDetector = %v, want bad input saying %q", err, tc.want)
			}
		})
	}
	if err := checkRaceDetector(context.Background()); err != nil {
		t.Errorf("checkRaceDetector on this machine = %v, want none", err)
	}
}
