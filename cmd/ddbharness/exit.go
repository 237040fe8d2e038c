package main

import (
	"context"
	"errors"
	"flag"

	"github.com/ddbharness/ddbharness/internal/failure"
)

// Exit codes a script can rely on (docs/when-a-run-goes-wrong.md, "Exit codes").
const (
	exitOK          = 0   // a complete, healthy run
	exitFailed      = 1   // the run completed and found failures: specs, coverage gaps, lint errors
	exitBadInput    = 2   // unknown command, scenario or design; a flag or variable out of range
	exitTestBed     = 3   // the test bed failed: DynamoDB Local died or could not start, an endpoint did not answer, calls failed for infrastructure reasons
	exitBreached    = 99  // a threshold or the baseline was breached (as k6 exits); the reports are written
	exitInterrupted = 130 // Ctrl-C or SIGTERM: what ran is reported, the rest did not run
)

// The kinds of failure are internal/failure's, so that a package a command
// runs can return them as well.
type (
	badInput = failure.BadInput
	testBed  = failure.TestBed
)

// errReported is a failure whose details are already on screen: main exits
// non-zero without printing after the run's closing summary line.
var errReported = failure.ErrReported

// badInputf returns a badInput; say what is wrong and what is allowed.
func badInputf(format string, args ...any) error { return failure.BadInputf(format, args...) }

// testBedFailed wraps err (nil stays nil) as a failure of the test bed.
func testBedFailed(err error) error { return failure.TestBedFailed(err) }

// errBreached is a run that measured what its thresholds or the baseline
// refuse: the report says which, and the command exits 99.
var errBreached = errors.New("breached")

// errReportLost is a run whose report could not be written: exit 1, even
// after Ctrl-C, so that a lost report is not taken for a clean stop.
var errReportLost = errors.New("the report is lost")

// errInterrupted is a run stopped by Ctrl-C or SIGTERM, already reported.
var errInterrupted = errors.New("interrupted")

// exitCode maps what a command returned to the process's exit code; the
// message (if any) is what main prints before exiting.
func exitCode(ctx context.Context, err error) (code int, message string) {
	var bad badInput
	var bed testBed
	switch {
	case errors.As(err, &bad):
		return exitBadInput, err.Error()
	case errors.Is(err, errReportLost):
		return exitFailed, err.Error()
	case ctx.Err() != nil, errors.Is(err, errInterrupted):
		if err == nil || errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled) || errors.Is(err, errReported) {
			return exitInterrupted, ""
		}
		return exitInterrupted, err.Error()
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK, ""
	case errors.As(err, &bed):
		return exitTestBed, err.Error()
	case errors.Is(err, errBreached):
		return exitBreached, err.Error()
	case errors.Is(err, errReported):
		return exitFailed, ""
	default:
		return exitFailed, err.Error()
	}
}

// noArgs runs a command that takes no arguments, refusing any.
func noArgs(fs *flag.FlagSet, args []string, run func() error) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("%s takes no arguments, got %q (see ddbharness help)", fs.Name(), fs.Args())
	}
	return run()
}
