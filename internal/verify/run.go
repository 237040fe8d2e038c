package verify

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/hostile"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// ReportDir holds what make verify writes: junit.xml, report.json and
// summary.md. A run writes them into a scratch folder of its own beside it
// (reports/.verify-PID-*) and moves each finished file in with one rename,
// so two runs in one checkout never read or clear each other's files, and
// a run that does not finish (bad input, Ctrl-C, DynamoDB Local dying)
// leaves the previous reports as they were.
var ReportDir = filepath.Join("reports", "verify")

// Options are what one run of verify is asked to do.
type Options struct {
	// GinkgoArgs are ginkgo run flags, passed on as they are: the caller
	// has checked them (ginkgo would refuse a flag it does not know, and
	// take a word that is not a flag for a package).
	GinkgoArgs []string
	// Filter is the user's label filter among GinkgoArgs, "" for none.
	Filter string
	// Designs names the designs the run is narrowed to (make verify
	// DESIGN=...); none: every design.
	Designs []string
	// Hostile runs each design's pattern specs with their patterns'
	// calls behind the standard profile of fault rules (internal/hostile).
	Hostile bool
	// Race builds every test with Go's race detector (CI's run): the
	// suites' processes take several times the CPU, so the engineer's
	// loop leaves it out.
	Race bool
	// StartDynamo starts (or finds) the run's DynamoDB; its errors say
	// whose fault a failure is (failure.BadInput, failure.TestBed).
	StartDynamo func(context.Context, ...testbed.Option) (*testbed.Server, error)
}

// hostileSeed is the fault seed of a hostile run: the profile's rules fire
// on counts, so the seed only matters to a rate= rule; it is printed with
// the profile all the same.
const hostileSeed = 1

// Run starts one DynamoDB Local (or uses AWS_ENDPOINT_URL_DYNAMODB),
// runs the tests of pure code under go test (cached when nothing changed),
// then every suite that reaches DynamoDB under ginkgo against it, in
// parallel processes, and gates on catalog coverage; the design lint runs
// meanwhile, for its warnings. o.GinkgoArgs go to ginkgo (e.g.
// --label-filter=AP-03); o.Designs narrow the run to those designs (see
// scope), checked before anything starts. If the embedded DynamoDB Local
// exits, the suites are stopped at once and the run fails as the test
// bed's failure. Its errors are failure's kinds: bad input, the test bed,
// or failure.ErrReported for failures it has printed.
func Run(ctx context.Context, o Options) error {
	sc, ginkgoArgs, err := plan(o)
	if err != nil {
		return err
	}
	filter := o.Filter
	env, err := testbed.LoadEnv()
	if err != nil {
		return failure.BadInputf("verify: %v", err) // a variable the run cannot use: refused before anything starts
	}
	if o.Race {
		if err := checkRaceDetector(ctx); err != nil {
			return err
		}
	}
	prep, err := prepare(ctx, sc, o.StartDynamo)
	if err != nil {
		return err
	}
	srv := prep.srv
	defer srv.Stop()
	fmt.Printf("verify: DynamoDB at %s\n", testbed.Redact(srv.Endpoint))
	if filter != "" {
		fmt.Printf("verify: label filter %q\n", filter)
	}
	if o.Hostile {
		fmt.Print(hostile.Describe(hostileSeed))
	}
	if sc.named {
		fmt.Print(sc.describe(sc.labelFilter(filter)))
	}

	runCtx, cancel := watchServer(ctx, srv)
	defer cancel(nil)
	reap, err := startReaper(!srv.Embedded())
	if err != nil {
		return err
	}
	defer reap.close()
	defer keepTimes(prep.dynamo)() // runs last, once the scratch below is gone
	var warnings bytes.Buffer
	linted := make(chan struct{})
	go func() { defer close(linted); cachedLintWarnings(runCtx, &warnings, sc.designs, env.CacheDir) }()

	units, unitErr := runUnits(runCtx, reap, o.Race, unitsToRun(sc, filter, prep.pure), os.Stdout)
	if unitErr != nil || runCtx.Err() != nil {
		return stopped(ctx, runCtx, unitErr)
	}
	// The scratch is made once the unit tests are done: a folder new in
	// reports/ while they run would change what the docs' tests read of
	// the tree, and go test would not reuse their results.
	scratch, err := scratchDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	unlock, err := lockSuites(runCtx)
	if err != nil {
		return stopped(ctx, runCtx, err)
	}
	bins, removeBins := linkSuites(runCtx, reap, env.CacheDir, o.Race, prep.dynamo, ginkgoArgs, os.Stdout)
	runErr := suites(runCtx, reap, prep.ginkgo, srv.Endpoint, scratch, prep.dynamo, bins, ginkgoArgs, mode{failOnEmpty: filter == "", hostile: o.Hostile, race: o.Race})
	removeBins()
	unlock()
	if runCtx.Err() != nil {
		return stopped(ctx, runCtx, runErr)
	}
	cov, crashed, err := gate(scratch, sc, filter, srv.Endpoint, prep.dynamo, runErr, o.Hostile)
	if err != nil {
		return err
	}

	fmt.Println()
	gaps, err := printCoverage(cov)
	if err != nil {
		return err
	}
	<-linted
	fmt.Print(warnings.String()) // advice on the designs' limits: printed, never a failure
	fmt.Printf("reports: %s (junit.xml, report.json, summary.md)\n", ReportDir)
	return verdict(sc, filter, outcome{cov: cov, crashed: crashed, gaps: gaps, units: units, runErr: runErr})
}

// watchServer is the run's own context: it ends with a cause (the test
// bed failed) when DynamoDB Local exits unasked, which stops every child
// at once.
func watchServer(ctx context.Context, srv *testbed.Server) (context.Context, context.CancelCauseFunc) {
	runCtx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-srv.Done():
			if err := srv.Exit(); err != nil {
				cancel(failure.TestBedFailed(err))
			}
		case <-runCtx.Done():
		}
	}()
	return runCtx, cancel
}

// unitsToRun is the unit tests of pure code a run takes of pure. A label
// filter picks specs; the unit tests of pure code carry no labels, so a
// filtered run leaves them to make test. A narrowed run has said so
// already: a design's own unit specs run in its suite.
func unitsToRun(sc scope, filter string, pure []testPackage) []testPackage {
	switch {
	case sc.named:
		return nil
	case filter != "":
		fmt.Printf("verify: the unit tests of pure code do not run under a label filter (make test runs them)\n")
		return nil
	}
	return pure
}

// gate measures the catalog's coverage from the suites' reports in
// scratch (and, on a hostile run, which faults each pattern's specs met:
// Reach), counts the suites that crashed before they reported, and
// publishes the run's reports.
func gate(scratch string, sc scope, filter, endpoint string, ran []testPackage, runErr error, hostile bool) (Coverage, int, error) {
	reports, err := mergeReports(scratch)
	if err != nil {
		return Coverage{}, 0, fmt.Errorf("ginkgo wrote no report (%v): %w", runErr, err)
	}
	cov, err := MeasureFiltered(sc.designs, reports, filter)
	if err != nil {
		return Coverage{}, 0, failure.BadInputf("verify: %v", err) // checked before the run; kept for safety
	}
	if sc.named {
		cov.Designs = sc.names()
	}
	if hostile {
		if cov.Unreached, err = Reach(cov.Rows, reports); err != nil {
			return Coverage{}, 0, fmt.Errorf("verify: hostile: %w", err)
		}
	}
	crashed := markCrashed(&cov, ran, reports)
	if err := writeSummary(scratch, cov, endpoint); err != nil {
		return Coverage{}, 0, err
	}
	return cov, crashed, publish(scratch)
}

// printCoverage prints the coverage table, the suites that did not run,
// the catalog's gaps and the stray labels; it returns the gaps.
func printCoverage(cov Coverage) ([]string, error) {
	if err := cov.WriteText(os.Stdout); err != nil {
		return nil, err
	}
	for _, n := range cov.NotRun {
		fmt.Println("suite did not run:", n)
	}
	gaps := cov.Gaps()
	for _, g := range gaps {
		fmt.Println("gap:", g)
	}
	for _, u := range cov.Unreached {
		fmt.Println("gap: hostile:", u)
	}
	for _, s := range cov.Stray {
		fmt.Println("warning: label names no catalog pattern:", s)
	}
	return gaps, nil
}

// outcome is what a run's tests came to, for its verdict.
type outcome struct {
	cov     Coverage
	crashed int      // suites that crashed before they reported
	gaps    []string // catalog patterns without a passing spec
	units   unitTotals
	runErr  error // the suites' failure
}

// verdict prints the run's verdict and its summary line, and returns
// failure.ErrReported when it failed, or bad input when a label filter
// selected no spec.
func verdict(sc scope, filter string, r outcome) error {
	cov, units := r.cov, r.units
	ran := cov.Totals.Passed + cov.Totals.Failed
	printSelected(sc, filter, cov)
	empty := filter != "" && ran == 0 && r.runErr == nil
	if why := failedBecause(sc, filter, r, empty); why != "" {
		fmt.Println("verify: FAILED: " + why)
	}
	fmt.Printf("verify: %d specs on DynamoDB (%d passed, %d failed), %d unit tests of pure code (%d passed, %d failed)\n",
		ran, cov.Totals.Passed, cov.Totals.Failed, units.passed+units.failed, units.passed, units.failed)
	fmt.Println(summaryLine(sc, filter, cov, r.crashed, units))
	if r.crashed > 0 || r.runErr != nil || units.failed > 0 || len(r.gaps) > 0 || len(cov.Unreached) > 0 {
		return failure.ErrReported
	}
	if empty {
		example := "design:shop && AP-03"
		if sc.named && len(sc.designs[0].Patterns) > 0 { // the design's label is there already
			example = string(sc.designs[0].Patterns[0].ID)
		}
		return failure.BadInputf("verify: the label filter %q matched no spec%s that reaches DynamoDB: "+
			"pattern specs carry design:NAME, the pattern ID and its index (make catalog lists them), e.g. --label-filter=%q",
			filter, ofDesigns(sc), example)
	}
	return nil
}

// failedBecause says why the run failed, first cause first; "" when it
// did not.
func failedBecause(sc scope, filter string, r outcome, empty bool) string {
	switch {
	case r.crashed > 0:
		return fmt.Sprintf("%d suite(s) crashed before they reported: a panic outside a spec's own goroutine, or an exit (the output above shows it)", r.crashed)
	case r.runErr != nil && r.cov.Totals.Failed == 0:
		// Go runs a suite's Examples and plain tests after RunSpecs; in
		// parallel processes ginkgo keeps their output to itself.
		return "a suite failed although no spec did: an Example (or a plain Go test) run after its specs, whose output " +
			"ginkgo's parallel run does not show (go test -run Example on the suite ginkgo names above shows it), or what ginkgo printed above"
	case r.runErr != nil:
		return "specs failed (details above)"
	case r.units.failed > 0:
		return "unit tests failed (details above)"
	case len(r.gaps) > 0:
		return fmt.Sprintf("%d catalog pattern(s) without passing specs", len(r.gaps))
	case len(r.cov.Unreached) > 0:
		return fmt.Sprintf("%d fault(s) a pattern's calls can meet that none of its specs met (gap: hostile: above)", len(r.cov.Unreached))
	case empty:
		return fmt.Sprintf("the label filter %q selected no spec%s on DynamoDB", filter, ofDesigns(sc))
	}
	return ""
}

// summaryLine is verify's last line: what passed and failed, suites and
// unit tests together, and what was skipped and why.
func summaryLine(sc scope, filter string, cov Coverage, crashed int, units unitTotals) string {
	summary := fmt.Sprintf("verify: %d passed, %d failed", cov.Totals.Passed+units.passed, cov.Totals.Failed+units.failed)
	if crashed > 0 {
		summary += fmt.Sprintf(", %d suite(s) crashed", crashed)
	}
	if n := len(cov.Unreached); n > 0 {
		summary += fmt.Sprintf(", %d fault(s) no spec of the pattern met", n)
	}
	if cov.Totals.Skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", cov.Totals.Skipped)
		switch {
		case filter != "":
			summary += " (outside the filter)"
		case sc.named:
			summary += " (other designs')"
		}
	}
	return summary
}

// markCrashed adds to cov the suites that ran but wrote no report: their
// process exited before it could (a panic in a goroutine a spec started,
// os.Exit), and it returns how many.
func markCrashed(cov *Coverage, ran []testPackage, reports []types.Report) int {
	reported := map[string]bool{}
	for _, r := range reports {
		reported[filepath.Clean(r.SuitePath)] = true
	}
	wd, _ := os.Getwd()
	n := 0
	for _, p := range ran {
		if reported[filepath.Clean(p.Dir)] {
			continue
		}
		n++
		rel, err := filepath.Rel(wd, p.Dir)
		if err != nil {
			rel = p.Dir
		}
		cov.NotRun = append(cov.NotRun, "./"+rel+": crashed before it reported (its output above shows why)")
		if _, design, ok := strings.Cut(p.ImportPath, "/designs/"); ok {
			cov.Crashed = append(cov.Crashed, design)
		}
	}
	return n
}

// printSelected says what the gate counted, when the run was narrowed by
// a label filter or to designs.
func printSelected(sc scope, filter string, cov Coverage) {
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

// plan checks what o asks, before anything starts: the scope (the designs
// o names, or every design) and the flags ginkgo runs with.
func plan(o Options) (sc scope, ginkgoArgs []string, err error) {
	if o.StartDynamo == nil {
		return scope{}, nil, errors.New("verify: Options.StartDynamo is nil")
	}
	if sc, err = newScope(o.Designs); err != nil {
		return scope{}, nil, err
	}
	if err := sc.checkDirs(); err != nil {
		return scope{}, nil, err
	}
	for _, d := range sc.designs {
		if err := d.Validate(); err != nil {
			return scope{}, nil, err
		}
	}
	ginkgoArgs = slices.Clone(o.GinkgoArgs)
	if sc.named {
		// Last wins: the narrowed filter replaces the user's, which it holds.
		ginkgoArgs = append(ginkgoArgs, "--label-filter="+sc.labelFilter(o.Filter))
	}
	return sc, ginkgoArgs, nil
}

// prepared is what a run needs before its suites: the DynamoDB, the
// ginkgo tool and the packages, split as splitPackages does.
type prepared struct {
	srv          *testbed.Server
	ginkgo       string
	dynamo, pure []testPackage
}

// prepare starts (or finds) the run's DynamoDB and, while its JVM starts,
// finds ginkgo and lists the scope's packages: seconds that a run narrowed
// to one design would otherwise spend waiting. On error nothing is left
// running.
func prepare(ctx context.Context, sc scope, startDynamo func(context.Context, ...testbed.Option) (*testbed.Server, error)) (prepared, error) {
	type started struct {
		srv *testbed.Server
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
// more when interrupted (the command exits 130), else err.
func stopped(ctx, runCtx context.Context, err error) error {
	var bed failure.TestBed
	switch {
	case errors.As(context.Cause(runCtx), &bed):
		fmt.Println("verify: FAILED: DynamoDB Local exited during the run; the suites were stopped at once")
		return failure.TestBedFailed(fmt.Errorf("%w\nverify stopped: every spec needs it. %s was left as it was. "+
			"Run make verify again; if DynamoDB Local exits again, its last lines above say why (memory, a killed JVM)",
			bed.Err, ReportDir))
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; DynamoDB Local stopped, %s left as it was", ReportDir)
	}
	return err
}
