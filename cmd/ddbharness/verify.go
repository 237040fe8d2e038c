package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// verifyDir holds what make verify writes: junit.xml, report.json and
// summary.md.
var verifyDir = filepath.Join("reports", "verify")

// errReported is a failure whose details are already on screen: main exits
// non-zero without printing after the run's closing summary line.
var errReported = errors.New("reported")

// runVerify starts one DynamoDB Local (or uses AWS_ENDPOINT_URL_DYNAMODB), runs
// every Ginkgo suite of the repository against it in parallel, and gates on
// catalog coverage. Extra args go to ginkgo (e.g. --label-filter=AP-03).
func runVerify(ctx context.Context, args []string) error {
	for _, d := range all.Designs {
		if err := d.Validate(); err != nil {
			return err
		}
	}
	endpoint, stop, err := ddblocal.Start(ctx)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("verify: DynamoDB at %s\n", endpoint)

	if err := os.RemoveAll(verifyDir); err != nil {
		return err
	}
	if err := os.MkdirAll(verifyDir, 0o755); err != nil {
		return err
	}
	runErr := ginkgo(ctx, endpoint, args)
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted; DynamoDB Local stopped")
	}
	reports, err := verify.ReadReports(filepath.Join(verifyDir, "report.json"))
	if err != nil {
		return fmt.Errorf("ginkgo wrote no report (%v): %w", runErr, err)
	}
	cov := verify.Measure(all.Designs, reports)
	if err := writeSummary(cov, endpoint); err != nil {
		return err
	}

	fmt.Println()
	if err := cov.WriteText(os.Stdout); err != nil {
		return err
	}
	for _, n := range cov.NotRun {
		fmt.Println("suite did not run:", n)
	}
	gaps := cov.Gaps()
	for _, g := range gaps {
		fmt.Println("gap:", g)
	}
	for _, s := range cov.Stray {
		fmt.Println("warning: label names no catalog pattern:", s)
	}
	lintWarnings(ctx) // advice on the designs' limits: printed, never a failure
	fmt.Printf("reports: %s (junit.xml, report.json, summary.md)\n", verifyDir)
	switch {
	case runErr != nil:
		fmt.Println("verify: FAILED: specs failed (details above)")
	case len(gaps) > 0:
		fmt.Printf("verify: FAILED: %d catalog pattern(s) without passing specs\n", len(gaps))
	}
	summary := fmt.Sprintf("verify: %d passed, %d failed", cov.Totals.Passed, cov.Totals.Failed)
	if cov.Totals.Skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", cov.Totals.Skipped)
	}
	fmt.Println(summary)
	if runErr != nil || len(gaps) > 0 {
		return errReported
	}
	return nil
}

// ginkgo runs every suite once, in parallel processes, against endpoint.
// It has its own process group, so a Ctrl-C reaches it once, through us,
// and the JVM is stopped only after the suites have cleaned up.
func ginkgo(ctx context.Context, endpoint string, extra []string) error {
	// The scaffold's walkthrough builds a whole copy of the repository; it
	// has its own target (make walkthrough), so verify stays quick.
	args := []string{"tool", "ginkgo", "-r", "-p", "--keep-going", "--randomize-all", "--fail-on-empty", "--race",
		"--skip-package=scaffold",
		"--timeout=10m", "--output-dir=" + verifyDir, "--junit-report=junit.xml", "--json-report=report.json"}
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		args = append(args, "--no-color")
	}
	cmd := exec.Command("go", append(args, extra...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	if env, _ := ddblocal.LoadEnv(); env.Endpoint == "" {
		cmd.Env = append(cmd.Env, ddblocal.EnvRunEndpoint+"="+endpoint)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run ginkgo: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		return <-done
	}
}

func writeSummary(cov verify.Coverage, endpoint string) error {
	f, err := os.Create(filepath.Join(verifyDir, "summary.md"))
	if err != nil {
		return err
	}
	if err := cov.WriteMarkdown(f, endpoint); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// coverage is the gate alone, for a report from a hand-run ginkgo.
func coverage(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: ddbharness coverage REPORT.json (from ginkgo --json-report)")
	}
	reports, err := verify.ReadReports(args[0])
	if err != nil {
		return err
	}
	cov := verify.Measure(all.Designs, reports)
	if err := cov.WriteText(os.Stdout); err != nil {
		return err
	}
	if gaps := cov.Gaps(); len(gaps) > 0 {
		for _, g := range gaps {
			fmt.Println("gap:", g)
		}
		return fmt.Errorf("%d catalog pattern(s) without passing specs", len(gaps))
	}
	return nil
}
