package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// verifyDir holds what make verify writes: junit.xml, report.json and
// summary.md.
var verifyDir = filepath.Join("reports", "verify")

// runVerify starts one DynamoDB Local (or uses AWS_ENDPOINT_URL_DYNAMODB),
// runs the tests of pure code under go test (cached when nothing changed),
// then every suite that reaches DynamoDB under ginkgo against it, in
// parallel processes, and gates on catalog coverage; the design lint runs
// meanwhile, for its warnings. Extra args go to ginkgo (e.g.
// --label-filter=AP-03).
func runVerify(ctx context.Context, args []string) error {
	for _, d := range all.Designs {
		if err := d.Validate(); err != nil {
			return err
		}
	}
	srv, err := ddblocal.Start(ctx)
	if err != nil {
		return err
	}
	defer srv.Stop()
	endpoint := srv.Endpoint
	fmt.Printf("verify: DynamoDB at %s\n", endpoint)

	if err := os.RemoveAll(verifyDir); err != nil {
		return err
	}
	if err := os.MkdirAll(verifyDir, 0o755); err != nil {
		return err
	}
	dynamo, pure, err := splitPackages(ctx)
	if err != nil {
		return err
	}
	var warnings bytes.Buffer
	linted := make(chan struct{})
	go func() { defer close(linted); lintWarnings(ctx, &warnings) }()
	units, unitErr := runUnits(ctx, pure, os.Stdout)
	if unitErr != nil {
		return unitErr
	}
	runErr := suites(ctx, endpoint, dynamo, args)
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted; DynamoDB Local stopped")
	}
	reports, err := mergeReports()
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
	<-linted
	fmt.Print(warnings.String()) // advice on the designs' limits: printed, never a failure
	fmt.Printf("reports: %s (junit.xml, report.json, summary.md)\n", verifyDir)
	switch {
	case runErr != nil:
		fmt.Println("verify: FAILED: specs failed (details above)")
	case units.failed > 0:
		fmt.Println("verify: FAILED: unit tests failed (details above)")
	case len(gaps) > 0:
		fmt.Printf("verify: FAILED: %d catalog pattern(s) without passing specs\n", len(gaps))
	}
	fmt.Printf("verify: %d specs on DynamoDB (%d passed, %d failed), %d unit tests of pure code (%d passed, %d failed)\n",
		cov.Totals.Passed+cov.Totals.Failed, cov.Totals.Passed, cov.Totals.Failed, units.passed+units.failed, units.passed, units.failed)
	summary := fmt.Sprintf("verify: %d passed, %d failed", cov.Totals.Passed+units.passed, cov.Totals.Failed+units.failed)
	if cov.Totals.Skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", cov.Totals.Skipped)
	}
	fmt.Println(summary)
	if runErr != nil || units.failed > 0 || len(gaps) > 0 {
		return errReported
	}
	return nil
}

// groups are the two ginkgo runs suites goes in at once: the design suites
// and the harness's own. Each runs its suites one after the other, and a
// suite waits on DynamoDB Local more than it computes, so two at a time
// keep a 2-core machine busy where one would leave it half idle.
var groups = []string{"designs", "harness"}

// suites runs every suite once against endpoint, in the two groups at
// once, each writing its own reports (mergeReports joins them).
func suites(ctx context.Context, endpoint string, all []testPackage, extra []string) error {
	byGroup := map[string][]testPackage{}
	for _, p := range all {
		g := "harness"
		if strings.Contains(p.ImportPath, "/designs/") {
			g = "designs"
		}
		byGroup[g] = append(byGroup[g], p)
	}
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, g := range groups {
		out := &lines{mu: &mu, w: os.Stdout}
		wg.Go(func() {
			errs[i] = ginkgo(ctx, endpoint, g, byGroup[g], extra, out)
			out.flush()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// lines forwards what it is written to w in whole lines only, under mu, so
// that the two ginkgo runs writing at once never cut into each other's
// lines (a suite's progress dots arrive with its result line).
type lines struct {
	mu  *sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *lines) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		l.mu.Lock()
		_, err := l.w.Write(l.buf[:i+1])
		l.mu.Unlock()
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush writes what is left after the last newline.
func (l *lines) flush() {
	if len(l.buf) > 0 {
		l.mu.Lock()
		_, _ = l.w.Write(append(l.buf, '\n'))
		l.mu.Unlock()
		l.buf = nil
	}
}

// mergeReports joins the groups' reports into report.json and junit.xml.
func mergeReports() ([]types.Report, error) {
	var jsons, junits []string
	for _, g := range groups {
		jsons = append(jsons, filepath.Join(verifyDir, "report-"+g+".json"))
		junits = append(junits, filepath.Join(verifyDir, "junit-"+g+".xml"))
	}
	reports, err := verify.MergeReports(filepath.Join(verifyDir, "report.json"), jsons...)
	if err != nil {
		return nil, err
	}
	if err := verify.MergeJUnit(filepath.Join(verifyDir, "junit.xml"), junits...); err != nil {
		return nil, err
	}
	for _, f := range slices.Concat(jsons, junits) {
		_ = os.Remove(f)
	}
	return reports, nil
}

// ginkgo runs one group's suites once each, in parallel processes, against
// endpoint. Test binaries are linked without DWARF (-w): nothing reads it,
// and it is most of a link. It has its own process group, so a Ctrl-C
// reaches it once, through us, and the JVM is stopped only after the
// suites have cleaned up. A group with no suite runs nothing and writes
// empty reports.
func ginkgo(ctx context.Context, endpoint, group string, suites []testPackage, extra []string, out io.Writer) error {
	report, junit := "report-"+group+".json", "junit-"+group+".xml"
	if len(suites) == 0 {
		if err := os.WriteFile(filepath.Join(verifyDir, report), []byte("[]"), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(verifyDir, junit), []byte("<testsuites></testsuites>"), 0o644)
	}
	args := []string{"tool", "ginkgo", "-p", "--keep-going", "--randomize-all", "--fail-on-empty", "--race", "--ldflags=-w",
		"--timeout=10m", "--output-dir=" + verifyDir, "--junit-report=" + junit, "--json-report=" + report}
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		args = append(args, "--no-color")
	}
	args = append(args, extra...)
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	for _, p := range suites {
		rel, err := filepath.Rel(wd, p.Dir)
		if err != nil {
			return err
		}
		args = append(args, "./"+rel)
	}
	cmd := exec.Command("go", args...)
	cmd.Stdout, cmd.Stderr = out, out
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
