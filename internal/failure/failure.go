// Package failure tells whose fault a command's failure is, so that the
// command line picks its exit code (docs/when-a-run-goes-wrong.md, "Exit codes"): the user's
// input, the test bed, or findings the run has already reported.
package failure

import (
	"errors"
	"fmt"
)

// ErrReported is a failure whose details are already on screen: the
// command exits non-zero without printing after the run's closing summary
// line.
var ErrReported = errors.New("reported")

// BadInput is an argument or variable the command refuses before it
// starts.
type BadInput struct{ Msg string }

func (e BadInput) Error() string { return e.Msg }

// BadInputf returns a BadInput; say what is wrong and what is allowed.
func BadInputf(format string, args ...any) error { return BadInput{fmt.Sprintf(format, args...)} }

// TestBed marks Err as the test bed failing rather than the design.
type TestBed struct{ Err error }

func (e TestBed) Error() string { return e.Err.Error() }
func (e TestBed) Unwrap() error { return e.Err }

// TestBedFailed wraps err (nil stays nil) as a failure of the test bed.
func TestBedFailed(err error) error {
	if err == nil {
		return nil
	}
	return TestBed{err}
}
