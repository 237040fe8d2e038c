package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCheckGinkgoFlags(t *testing.T) {
	cases := []struct {
		args       []string
		wantFilter string
		wantNames  []string
		wantErr    string // "" for none; "help" for flag.ErrHelp
	}{
		{args: nil},
		{args: []string{"--label-filter=design:shop && AP-03", "-v"}, wantFilter: "design:shop && AP-03"},
		{args: []string{"-label-filter", "AP-01 || AP-02"}, wantFilter: "AP-01 || AP-02"},
		{args: []string{"--label-filter=AP-03", "shop", "invoicing"}, wantFilter: "AP-03", wantNames: []string{"shop", "invoicing"}},
		{args: []string{"./designs/shop"}, wantNames: []string{"./designs/shop"}}, // newScope refuses it
		{args: []string{"--bogus-flag"}, wantErr: "flag provided but not defined: -bogus-flag"},
		{args: []string{"--label-filter=design:shop &&"}, wantErr: "Syntax Error Parsing Label Filter: Unexpected EOF"},
		{args: []string{"--output-dir=/tmp"}, wantErr: "verify's own"},
		{args: []string{"--focus-file=:x"}, wantErr: "verify:"},
		{args: []string{"-h"}, wantErr: "help"},
	}
	for _, c := range cases {
		filter, names, err := checkGinkgoFlags(c.args)
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
		case c.wantErr == "" && (filter != c.wantFilter || !slices.Equal(names, c.wantNames)):
			t.Errorf("checkGinkgoFlags(%q) = %q, %q; want %q, %q", c.args, filter, names, c.wantFilter, c.wantNames)
		}
		if err != nil && strings.Contains(err.Error(), "\x1b[") {
			t.Errorf("checkGinkgoFlags(%q) error has terminal colours: %q", c.args, err)
		}
	}
}

func TestNewScope(t *testing.T) {
	cases := []struct {
		names     []string
		wantNames []string
		wantErr   []string // what a refusal says
	}{
		{names: nil, wantNames: designNames()},
		{names: []string{"shop"}, wantNames: []string{"shop"}},
		{names: []string{"shop", "invoicing", "shop"}, wantNames: []string{"shop", "invoicing"}},
		{names: []string{"shop", "nosuch"}, wantErr: []string{`no design "nosuch"`, strings.Join(designNames(), ", "), "DESIGN=shop"}},
		{names: []string{"./designs/shop"}, wantErr: []string{"is not a flag", "not its folder", "--label-filter="}},
		{names: []string{"shop", "-v"}, wantErr: []string{`"-v" comes after a design name: flags go first`}},
	}
	for _, c := range cases {
		s, err := newScope(c.names)
		if c.wantErr == nil {
			if err != nil || !slices.Equal(s.names(), c.wantNames) || s.named != (len(c.names) > 0) {
				t.Errorf("newScope(%q) = %q (named %v), %v; want %q", c.names, s.names(), s.named, err, c.wantNames)
			}
			continue
		}
		var bad badInput
		if !errors.As(err, &bad) {
			t.Errorf("newScope(%q) error = %v, want bad input", c.names, err)
			continue
		}
		for _, w := range c.wantErr {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("newScope(%q) error = %q, want it to say %q", c.names, err, w)
			}
		}
	}
}

func TestScopeNarrowsSuitesAndFilter(t *testing.T) {
	every, _ := newScope(nil)
	if got := every.packages(); !slices.Equal(got, []string{"./..."}) {
		t.Errorf("every design: packages() = %q, want ./...", got)
	}
	if got := every.labelFilter("AP-03"); got != "AP-03" {
		t.Errorf("every design: labelFilter(AP-03) = %q, want the user's", got)
	}
	two, err := newScope([]string{"shop", "invoicing"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := two.packages(), []string{"./designs/shop", "./designs/invoicing", "./scenarios"}; !slices.Equal(got, want) {
		t.Errorf("packages() = %q, want %q", got, want)
	}
	for user, want := range map[string]string{
		"":      "design:shop || design:invoicing",
		"AP-03": "(design:shop || design:invoicing) && (AP-03)",
	} {
		if got := two.labelFilter(user); got != want {
			t.Errorf("labelFilter(%q) = %q, want %q", user, got, want)
		}
	}
	// verify appends the narrowed filter after the user's flags: ginkgo's
	// flags keep the last value, so the narrowed one is what runs.
	args := ginkgoFlags([]string{"--label-filter=AP-03", "-v", "--", "shop"}, []string{"shop"})
	if !slices.Equal(args, []string{"--label-filter=AP-03", "-v"}) {
		t.Errorf("ginkgoFlags(...) = %q, want the flags without -- and the name", args)
	}
	filter, _, err := checkGinkgoFlags(append(args, "--label-filter="+two.labelFilter("AP-03")))
	if err != nil || filter != two.labelFilter("AP-03") {
		t.Errorf("ginkgo's flags with the narrowed filter last: filter %q, %v; want %q", filter, err, two.labelFilter("AP-03"))
	}
}

// TestPerDesignSuites keeps perDesignSuites true: a suite on DynamoDB (its
// tests import ddbtest) outside designs/ whose specs carry a design's label
// holds specs per design, and a narrowed verify must run it.
func TestPerDesignSuites(t *testing.T) {
	root := filepath.Join("..", "..")
	perDesign := regexp.MustCompile(`Label\([^)]*(\.Label\(\)|"design:)`)
	labels, dynamo := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch rel = filepath.ToSlash(rel); {
		case e.IsDir() && slices.Contains([]string{"designs", "internal/faults", "internal/scaffold", "reports", ".git"}, rel):
			return filepath.SkipDir // designs' own suites; suites verify does not run
		case e.IsDir() || !strings.HasSuffix(rel, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		dir := "./" + filepath.ToSlash(filepath.Dir(rel))
		labels[dir] = labels[dir] || perDesign.Match(b)
		dynamo[dir] = dynamo[dir] || bytes.Contains(b, []byte(`"`+ddbtestPackage+`"`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range labels {
		if labels[dir] && dynamo[dir] && !slices.Contains(perDesignSuites, dir) {
			t.Errorf("%s labels specs with a design: add it to perDesignSuites, so that make verify DESIGN=name runs them", dir)
		}
	}
	for _, dir := range perDesignSuites {
		if !labels[dir] || !dynamo[dir] {
			t.Errorf("perDesignSuites lists %s, which is no suite on DynamoDB with specs labelled per design: remove it", dir)
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
