package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"testing"
)

func TestExitCode(t *testing.T) {
	live := context.Background()
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"a healthy run", live, nil, exitOK},
		{"--help", live, flag.ErrHelp, exitOK},
		{"a failure already on screen", live, errReported, exitFailed},
		{"any other error", live, errors.New("boom"), exitFailed},
		{"bad input", live, badInputf("--duration=-5s: want more than 0"), exitBadInput},
		{"bad input, wrapped", live, fmt.Errorf("bench: %w", badInputf("x")), exitBadInput},
		{"the test bed", live, testBedFailed(errors.New("DynamoDB Local exited")), exitTestBed},
		{"a threshold breached", live, fmt.Errorf("bench: %w", errBreached), exitBreached},
		{"interrupted, said by the command", live, errInterrupted, exitInterrupted},
		{"interrupted, any error after the signal", stopped, errors.New("context canceled"), exitInterrupted},
		{"interrupted with a clean return", stopped, nil, exitInterrupted},
		{"bad input wins over an interrupt", stopped, badInputf("x"), exitBadInput},
		{"a report lost after the interrupt", stopped, fmt.Errorf("local: %w", errReportLost), exitFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := exitCode(c.ctx, c.err); got != c.want {
				t.Errorf("exit %d, want %d", got, c.want)
			}
		})
	}
	if testBedFailed(nil) != nil {
		t.Error("testBedFailed(nil) is not nil")
	}
}

func TestNoArgs(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
		ran  bool
	}{
		{"none", nil, exitOK, true},
		{"an argument", []string{"x"}, exitBadInput, false},
		{"-h", []string{"-h"}, exitOK, false},
		{"a flag it does not have", []string{"-x"}, exitBadInput, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran := false
			fs := newFlags("catalog", "", "")
			fs.SetOutput(io.Discard)
			err := noArgs(fs, c.args, func() error { ran = true; return nil })
			if code, _ := exitCode(context.Background(), err); code != c.want || ran != c.ran {
				t.Errorf("catalog %q: exit %d, ran %v; want exit %d, ran %v", c.args, code, ran, c.want, c.ran)
			}
		})
	}
}
