package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCheckGinkgoFlags(t *testing.T) {
	cases := []struct {
		args       []string
		wantFilter string
		wantErr    string // "" for none; "help" for flag.ErrHelp
	}{
		{args: nil},
		{args: []string{"--label-filter=design:shop && AP-03", "-v"}, wantFilter: "design:shop && AP-03"},
		{args: []string{"-label-filter", "AP-01 || AP-02"}, wantFilter: "AP-01 || AP-02"},
		{args: []string{"--bogus-flag"}, wantErr: "flag provided but not defined: -bogus-flag"},
		{args: []string{"--label-filter=design:shop &&"}, wantErr: "Syntax Error Parsing Label Filter: Unexpected EOF"},
		{args: []string{"./designs/shop"}, wantErr: `"./designs/shop" is not a flag`},
		{args: []string{"--output-dir=/tmp"}, wantErr: "verify's own"},
		{args: []string{"--focus-file=:x"}, wantErr: "verify:"},
		{args: []string{"-h"}, wantErr: "help"},
	}
	for _, c := range cases {
		filter, err := checkGinkgoFlags(c.args)
		var bad badInput
		switch {
		case c.wantErr == "help":
			if !errors.Is(err, flag.ErrHelp) {
				t.Errorf("checkGinkgoFlags(%q) error = %v, want flag.ErrHelp", c.args, err)
			}
		case c.wantErr == "" && err != nil:
			t.Errorf("checkGinkgoFlags(%q) error = %v, want none", c.args, err)
		case c.wantErr != "" && (!errors.As(err, &bad) || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("checkGinkgoFlags(%q) error = %v, want bad input saying %q", c.args, err, c.wantErr)
		case c.wantErr == "" && filter != c.wantFilter:
			t.Errorf("checkGinkgoFlags(%q) filter = %q, want %q", c.args, filter, c.wantFilter)
		}
		if err != nil && strings.Contains(err.Error(), "\x1b[") {
			t.Errorf("checkGinkgoFlags(%q) error has terminal colours: %q", c.args, err)
		}
	}
}

func TestReaperEndsGroupsLeftListed(t *testing.T) {
	r, err := startReaper(false)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	left := exec.Command("sleep", "60")
	if _, err := r.startGroup(ctx, left); err != nil {
		t.Fatal(err)
	}
	done := exec.Command("true")
	wait, err := r.startGroup(ctx, done)
	if err != nil {
		t.Fatal(err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = left.Wait(); close(ended) }()
	// Closing the reaper's input is what verify dying does.
	r.close()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		_ = left.Process.Kill()
		t.Fatal("a process group still listed outlived the reaper's input closing")
	}
}

func TestStartGroupKillsOnTestBedFailure(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cmd := exec.Command("sh", "-c", "trap '' INT; sleep 60 & wait")
	wait, err := (*reaper)(nil).startGroup(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel(testBedFailed(errors.New("DynamoDB Local exited")))
	err = wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("wait() = %v, want the group killed", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the group took %s to end, want it killed at once", d)
	}
}

func TestScratchAndPublish(t *testing.T) {
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	// A folder left by a run that died (no such process) goes; a live
	// run's folder stays.
	dead := filepath.Join("reports", ".verify-999999999-x")
	live := filepath.Join("reports", ".verify-1-x")
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, err := scratchDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("scratchDir left a dead run's folder %s", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("scratchDir removed a live run's folder %s: %v", live, err)
	}
	for _, f := range reportFiles {
		if err := os.WriteFile(filepath.Join(s, f), []byte("new "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := publish(s); err != nil {
		t.Fatal(err)
	}
	for _, f := range reportFiles {
		b, err := os.ReadFile(filepath.Join(verifyDir, f))
		if err != nil || string(b) != "new "+f {
			t.Errorf("%s after publish = %q, %v; want %q", f, b, err, "new "+f)
		}
	}
}
