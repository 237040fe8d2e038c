package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// verifyDir holds what make verify writes: junit.xml, report.json and
// summary.md. A run writes them into a scratch folder of its own beside it
// (reports/.verify-PID-*) and moves each finished file in with one rename,
// so two runs in one checkout never read or clear each other's files, and
// a run that does not finish (bad input, Ctrl-C, DynamoDB Local dying)
// leaves the previous reports as they were.
var verifyDir = filepath.Join("reports", "verify")

// runVerify starts one DynamoDB Local (or uses AWS_ENDPOINT_URL_DYNAMODB),
// runs the tests of pure code under go test (cached when nothing changed),
// then every suite that reaches DynamoDB under ginkgo against it, in
// parallel processes, and gates on catalog coverage; the design lint runs
// meanwhile, for its warnings. Flags go to ginkgo (e.g.
// --label-filter=AP-03), checked before anything starts; design names
// after them narrow the run to those designs (see scope). If the embedded
// DynamoDB Local exits, the suites are stopped at once and the run fails
// as the test bed's failure.
func runVerify(ctx context.Context, args []string) error {
	sc, filter, ginkgoArgs, err := planVerify(args)
	if err != nil {
		return err
	}
	if _, err := ddblocal.LoadEnv(); err != nil {
		return badInputf("verify: %v", err) // a variable the run cannot use: refused before anything starts
	}
	prep, err := prepare(ctx, sc)
	if err != nil {
		return err
	}
	srv, ginkgoBin, dynamo, pure := prep.srv, prep.ginkgo, prep.dynamo, prep.pure
	defer srv.Stop()
	endpoint := srv.Endpoint
	fmt.Printf("verify: DynamoDB at %s\n", endpoint)
	if filter != "" {
		fmt.Printf("verify: label filter %q\n", filter)
	}
	if sc.named {
		fmt.Print(sc.describe(sc.labelFilter(filter)))
	}

	// The run's own context ends with a cause when DynamoDB Local exits
	// unasked, which stops every child at once.
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-srv.Done():
			if err := srv.Exit(); err != nil {
				cancel(testBedFailed(err))
			}
		case <-runCtx.Done():
		}
	}()
	reap, err := startReaper(!srv.Embedded())
	if err != nil {
		return err
	}
	defer reap.close()

	scratch, err := scratchDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	var warnings bytes.Buffer
	linted := make(chan struct{})
	go func() { defer close(linted); lintWarnings(runCtx, &warnings, sc.designs) }()
	// A label filter picks specs; the unit tests of pure code carry no
	// labels, so a filtered run leaves them to make test. A narrowed run
	// has said so already: a design's own unit specs run in its suite.
	switch {
	case sc.named:
		pure = nil
	case filter != "":
		fmt.Printf("verify: the unit tests of pure code do not run under a label filter (make test runs them)\n")
		pure = nil
	}
	units, unitErr := runUnits(runCtx, reap, pure, os.Stdout)
	if unitErr != nil || runCtx.Err() != nil {
		return stopped(ctx, runCtx, unitErr)
	}
	unlock, err := lockSuites(runCtx)
	if err != nil {
		return stopped(ctx, runCtx, err)
	}
	runErr := suites(runCtx, reap, ginkgoBin, endpoint, scratch, dynamo, ginkgoArgs, filter == "")
	unlock()
	if runCtx.Err() != nil {
		return stopped(ctx, runCtx, runErr)
	}
	reports, err := mergeReports(scratch)
	if err != nil {
		return fmt.Errorf("ginkgo wrote no report (%v): %w", runErr, err)
	}
	cov, err := verify.MeasureFiltered(sc.designs, reports, filter)
	if err != nil {
		return badInputf("verify: %v", err) // checked before the run; kept for safety
	}
	if sc.named {
		cov.Designs = sc.names()
	}
	if err := writeSummary(scratch, cov, endpoint); err != nil {
		return err
	}
	if err := publish(scratch); err != nil {
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
	ran := cov.Totals.Passed + cov.Totals.Failed
	printSelected(sc, filter, cov)
	empty := filter != "" && ran == 0 && runErr == nil
	switch {
	case runErr != nil:
		fmt.Println("verify: FAILED: specs failed (details above)")
	case units.failed > 0:
		fmt.Println("verify: FAILED: unit tests failed (details above)")
	case len(gaps) > 0:
		fmt.Printf("verify: FAILED: %d catalog pattern(s) without passing specs\n", len(gaps))
	case empty:
		fmt.Printf("verify: FAILED: the label filter %q selected no spec%s on DynamoDB\n", filter, ofDesigns(sc))
	}
	fmt.Printf("verify: %d specs on DynamoDB (%d passed, %d failed), %d unit tests of pure code (%d passed, %d failed)\n",
		ran, cov.Totals.Passed, cov.Totals.Failed, units.passed+units.failed, units.passed, units.failed)
	summary := fmt.Sprintf("verify: %d passed, %d failed", cov.Totals.Passed+units.passed, cov.Totals.Failed+units.failed)
	if cov.Totals.Skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", cov.Totals.Skipped)
		switch {
		case filter != "":
			summary += " (outside the filter)"
		case sc.named:
			summary += " (other designs')"
		}
	}
	fmt.Println(summary)
	if runErr != nil || units.failed > 0 || len(gaps) > 0 {
		return errReported
	}
	if empty {
		example := "design:shop && AP-03"
		if sc.named && len(sc.designs[0].Patterns) > 0 { // the design's label is there already
			example = string(sc.designs[0].Patterns[0].ID)
		}
		return badInputf("verify: the label filter %q matched no spec%s that reaches DynamoDB: "+
			"pattern specs carry design:NAME, the pattern ID and its index (make catalog lists them), e.g. --label-filter=%q",
			filter, ofDesigns(sc), example)
	}
	return nil
}

// printSelected says what the gate counted, when the run was narrowed by
// a label filter or to designs.
func printSelected(sc scope, filter string, cov verify.Coverage) {
	ran := cov.Totals.Passed + cov.Totals.Failed
	switch {
	case filter != "":
		fmt.Printf("verify: label filter %q selected %d of %d catalog pattern(s)%s and %d spec(s) on DynamoDB\n",
			filter, len(cov.Rows), cov.Catalog, ofDesigns(sc), ran)
	case sc.named:
		fmt.Printf("verify: the gate counted the %d catalog pattern(s)%s; %d spec(s) ran on DynamoDB\n",
			cov.Catalog, ofDesigns(sc), ran)
	}
}

// ofDesigns names a narrowed run's designs, for a message.
func ofDesigns(sc scope) string {
	if !sc.named {
		return ""
	}
	return " of " + strings.Join(sc.names(), ", ")
}

// planVerify reads verify's arguments, all checked before anything
// starts: the scope (the designs named after the flags, or every design),
// the user's label filter, and the flags ginkgo runs with.
func planVerify(args []string) (sc scope, filter string, ginkgoArgs []string, err error) {
	filter, names, err := checkGinkgoFlags(args)
	if err != nil {
		return scope{}, "", nil, err
	}
	if sc, err = newScope(names); err != nil {
		return scope{}, "", nil, err
	}
	if err := sc.checkDirs(); err != nil {
		return scope{}, "", nil, err
	}
	for _, d := range sc.designs {
		if err := d.Validate(); err != nil {
			return scope{}, "", nil, err
		}
	}
	ginkgoArgs = ginkgoFlags(args, names)
	if sc.named {
		// Last wins: the narrowed filter replaces the user's, which it holds.
		ginkgoArgs = append(ginkgoArgs, "--label-filter="+sc.labelFilter(filter))
	}
	return sc, filter, ginkgoArgs, nil
}

// prepared is what a run needs before its suites: the DynamoDB, the
// ginkgo tool and the packages, split as splitPackages does.
type prepared struct {
	srv          *ddblocal.Server
	ginkgo       string
	dynamo, pure []testPackage
}

// prepare starts (or finds) the run's DynamoDB and, while its JVM starts,
// finds ginkgo and lists the scope's packages: seconds that a run narrowed
// to one design would otherwise spend waiting. On error nothing is left
// running.
func prepare(ctx context.Context, sc scope) (prepared, error) {
	type started struct {
		srv *ddblocal.Server
		err error
	}
	dynamo := make(chan started, 1)
	go func() { srv, err := startDynamo(ctx); dynamo <- started{srv, err} }()
	var p prepared
	bin, binErr := ginkgoBinary(ctx)
	var listErr error
	if binErr == nil {
		p.dynamo, p.pure, listErr = splitPackages(ctx, sc.packages())
	}
	s := <-dynamo
	switch {
	case binErr != nil, s.err != nil, listErr != nil:
		if s.srv != nil {
			s.srv.Stop()
		}
		if ctx.Err() != nil {
			return prepared{}, stopped(ctx, ctx, ctx.Err())
		}
		return prepared{}, cmp.Or(binErr, s.err, listErr)
	}
	p.srv, p.ginkgo = s.srv, bin
	return p, nil
}

// stopped is what a run that ended early returns: the test bed's failure
// when DynamoDB Local exited (its time, state and last lines), nothing
// more when interrupted (main exits 130), else err.
func stopped(ctx, runCtx context.Context, err error) error {
	var bed testBed
	switch {
	case errors.As(context.Cause(runCtx), &bed):
		fmt.Println("verify: FAILED: DynamoDB Local exited during the run; the suites were stopped at once")
		return testBedFailed(fmt.Errorf("%w\nverify stopped: every spec needs it. %s was left as it was. "+
			"Run make verify again; if DynamoDB Local exits again, its last lines above say why (memory, a killed JVM)",
			bed.Err, verifyDir))
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; DynamoDB Local stopped, %s left as it was", verifyDir)
	}
	return err
}

// checkGinkgoFlags parses args as ginkgo run flags, so that a flag ginkgo
// would refuse, or a label filter it cannot parse, is refused before
// anything starts; it returns the label filter and the words after the
// flags (design names, which newScope checks).
func checkGinkgoFlags(args []string) (filter string, names []string, err error) {
	suite, reporter, cli, goFlags := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig(), types.NewDefaultCLIConfig(), types.NewDefaultGoFlagsConfig()
	fs, err := types.BuildRunCommandFlagSet(&suite, &reporter, &cli, &goFlags)
	if err != nil {
		return "", nil, err
	}
	rest, err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Print(verifyUsage)
		return "", nil, err
	}
	if err != nil {
		return "", nil, badInputf("verify: %v: verify takes ginkgo's run flags (go tool ginkgo help run lists them), e.g. --label-filter=%q", err, "design:shop && AP-03")
	}
	if _, err := types.ParseLabelFilter(suite.LabelFilter); err != nil {
		return "", nil, badInputf("verify: --label-filter=%q: %s; labels join with &&, || and ! (make catalog lists them), e.g. --label-filter=%q",
			suite.LabelFilter, plain(err), "design:shop && AP-03")
	}
	for _, f := range [][]string{suite.FocusFiles, suite.SkipFiles} {
		if _, err := types.ParseFileFilters(f); err != nil {
			return "", nil, badInputf("verify: %s", plain(err))
		}
	}
	if cli.OutputDir != "" || reporter.JSONReport != "" || reporter.JUnitReport != "" || reporter.TeamcityReport != "" {
		return "", nil, badInputf("verify: --output-dir and --*-report are verify's own: it writes %s/junit.xml and report.json", verifyDir)
	}
	return suite.LabelFilter, rest, nil
}

// ginkgoFlags are the flags of args, without the design names after them
// (or the "--" that ended the flags): ginkgo would take either for
// packages.
func ginkgoFlags(args, names []string) []string {
	flags := args[:len(args)-len(names)]
	if len(flags) > 0 && flags[len(flags)-1] == "--" {
		flags = flags[:len(flags)-1]
	}
	return slices.Clone(flags)
}

const verifyUsage = `usage: ddbharness verify [ginkgo run flags] [DESIGN ...]
       (make verify [DESIGN='shop ...'] [GINKGO_FLAGS='...'])

Proves every access pattern of every design on DynamoDB Local and gates on
catalog coverage. Flags go to ginkgo (go tool ginkgo help run lists them);
a --label-filter narrows the gate to the catalog patterns it selects:
  ddbharness verify --label-filter='design:shop && AP-03'
Design names narrow the run to those designs: their suites, the scenario
specs labelled with them, their lint and their coverage gate:
  ddbharness verify shop
`

// plain is a ginkgo error on one line, without its terminal colours.
func plain(err error) string {
	var ge types.GinkgoError
	if !errors.As(err, &ge) {
		return err.Error()
	}
	// The message repeats the input, then says what is wrong on its last line.
	msg := strings.TrimSpace(formatter.New(formatter.ColorModeNone).F(ge.Message))
	return ge.Heading + ": " + strings.TrimSuffix(msg[strings.LastIndexByte(msg, '\n')+1:], ".")
}

// ginkgoBinary is the path of the module's ginkgo tool, built if needed.
// verify runs it directly rather than under go tool, so that its process
// group holds ginkgo and its suites and nothing between.
func ginkgoBinary(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "tool", "-n", "ginkgo").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return "", fmt.Errorf("find ginkgo (go tool -n ginkgo): %w; run verify from the repository's root", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// scratchDir makes this run's folder beside verifyDir, first removing the
// folders of runs that died without removing theirs (kill -9).
func scratchDir() (string, error) {
	parent := filepath.Dir(verifyDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("verify: %w (reports must be writable)", err)
	}
	old, _ := filepath.Glob(filepath.Join(parent, ".verify-*-*"))
	for _, d := range old {
		pid, err := strconv.Atoi(strings.Split(filepath.Base(d), "-")[1])
		if err == nil && pid != os.Getpid() && syscall.Kill(pid, 0) == syscall.ESRCH {
			_ = os.RemoveAll(d)
		}
	}
	d, err := os.MkdirTemp(parent, fmt.Sprintf(".verify-%d-*", os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("verify: %w (reports must be writable)", err)
	}
	return d, nil
}

// lockSuites waits until no other verify in this checkout runs its
// suites: ginkgo builds each suite's test binary into the suite's own
// folder (designs/shop/shop.test) and removes it afterwards, so two runs
// at once would run or remove each other's binaries. The lock ends with
// the process, however it ends.
func lockSuites(ctx context.Context) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(filepath.Dir(verifyDir), ".verify.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("verify: %w (reports must be writable)", err)
	}
	waiting := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("verify: lock %s: %w", f.Name(), err)
		}
		if !waiting {
			fmt.Println("verify: another verify in this checkout is running its suites; waiting for it to finish " +
				"(ginkgo builds each suite's test binary in the suite's folder)")
			waiting = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// reportFiles are what a finished run leaves in verifyDir.
var reportFiles = []string{"junit.xml", "report.json", "summary.md"}

// publish moves the finished reports from scratch into verifyDir, each
// with one rename: a reader sees a whole file, old or new, never half.
func publish(scratch string) error {
	if err := os.MkdirAll(verifyDir, 0o755); err != nil {
		return err
	}
	for _, f := range reportFiles {
		if err := os.Rename(filepath.Join(scratch, f), filepath.Join(verifyDir, f)); err != nil {
			return fmt.Errorf("verify: move report into place: %w", err)
		}
	}
	return nil
}

// groups are the two ginkgo runs suites goes in at once: the design suites
// and the harness's own. Each runs its suites one after the other, and a
// suite waits on DynamoDB Local more than it computes, so two at a time
// keep a 2-core machine busy where one would leave it half idle.
var groups = []string{"designs", "harness"}

// suites runs every suite once against endpoint, in the two groups at
// once, each writing its own reports into dir (mergeReports joins them).
func suites(ctx context.Context, reap *reaper, ginkgoBin, endpoint, dir string, all []testPackage, extra []string, failOnEmpty bool) error {
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
			errs[i] = ginkgo(ctx, reap, ginkgoBin, endpoint, dir, g, byGroup[g], extra, failOnEmpty, out)
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

// mergeReports joins the groups' reports in dir into report.json and
// junit.xml.
func mergeReports(dir string) ([]types.Report, error) {
	var jsons, junits []string
	for _, g := range groups {
		jsons = append(jsons, filepath.Join(dir, "report-"+g+".json"))
		junits = append(junits, filepath.Join(dir, "junit-"+g+".xml"))
	}
	reports, err := verify.MergeReports(filepath.Join(dir, "report.json"), jsons...)
	if err != nil {
		return nil, err
	}
	if err := verify.MergeJUnit(filepath.Join(dir, "junit.xml"), junits...); err != nil {
		return nil, err
	}
	for _, f := range slices.Concat(jsons, junits) {
		_ = os.Remove(f)
	}
	return reports, nil
}

// ginkgo runs one group's suites once each, in parallel processes, against
// endpoint, writing its reports into dir. Test binaries are linked without
// DWARF (-w): nothing reads it, and it is most of a link. It has its own
// process group, so a Ctrl-C reaches it once, through us, and the JVM is
// stopped only after the suites have cleaned up. Without a label filter
// of the user's an empty suite is a mistake (failOnEmpty); with one, most
// suites rightly select nothing, and runVerify fails only when none
// selected anything. A group with no suite runs nothing and writes empty
// reports.
func ginkgo(ctx context.Context, reap *reaper, ginkgoBin, endpoint, dir, group string, suites []testPackage, extra []string, failOnEmpty bool, out io.Writer) error {
	report, junit := "report-"+group+".json", "junit-"+group+".xml"
	if len(suites) == 0 {
		if err := os.WriteFile(filepath.Join(dir, report), []byte("[]"), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, junit), []byte("<testsuites></testsuites>"), 0o644)
	}
	args := []string{"-p", "--keep-going", "--randomize-all", "--race", "--ldflags=-w",
		"--timeout=10m", "--output-dir=" + dir, "--junit-report=" + junit, "--json-report=" + report}
	if failOnEmpty {
		args = append(args, "--fail-on-empty")
	}
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
	cmd := exec.Command(ginkgoBin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = os.Environ()
	if env, _ := ddblocal.LoadEnv(); env.Endpoint == "" {
		cmd.Env = append(cmd.Env, ddblocal.EnvRunEndpoint+"="+endpoint)
	}
	wait, err := reap.startGroup(ctx, cmd)
	if err != nil {
		return fmt.Errorf("run ginkgo: %w", err)
	}
	return wait()
}

func writeSummary(dir string, cov verify.Coverage, endpoint string) error {
	f, err := os.Create(filepath.Join(dir, "summary.md"))
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
		return badInputf("usage: ddbharness coverage REPORT.json (from ginkgo --json-report)")
	}
	reports, err := verify.ReadReports(args[0])
	if err != nil {
		return badInputf("coverage: %v: give the JSON report a ginkgo run wrote (--json-report=FILE)", err)
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
