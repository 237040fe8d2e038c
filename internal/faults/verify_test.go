package faults_test

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// Every spec here runs verify in the checkout itself, one after the other,
// each narrowed to one small design by name (which builds its own two
// suites), with the flags make verify uses, so CI's make verify after make
// faults finds them built. What the last of them leaves in reports/verify
// is a narrowed run's.
var _ = Describe("verify", Label("faults"), SpecPriority(2), Ordered, ContinueOnFailure, func() {
	var repo string
	BeforeAll(func() {
		abs, err := filepath.Abs(repoRoot)
		Expect(err).NotTo(HaveOccurred())
		repo = abs
	})
	reportsDir := func() string { return filepath.Join(repo, "reports", "verify") }

	It("refuses bad input before it starts anything, and leaves the previous reports as they were", func(ctx SpecContext) {
		Expect(os.MkdirAll(reportsDir(), 0o755)).To(Succeed())
		// A run killed earlier may have left its scratch folder for the next
		// full run to remove; bad input must add none.
		scratchBefore := scratchDirs(repo)
		before := map[string]string{}
		for _, f := range []string{"junit.xml", "report.json", "summary.md"} {
			before[f] = "previous run's " + f
			Expect(os.WriteFile(filepath.Join(reportsDir(), f), []byte(before[f]), 0o644)).To(Succeed())
		}
		for _, tc := range []struct{ arg, says string }{
			{"--bogus-flag", "flag provided but not defined: -bogus-flag"},
			{"--label-filter=design:shop &&", "Syntax Error Parsing Label Filter: Unexpected EOF"},
			{"--label-filter=(design:shop", "Syntax Error Parsing Label Filter: Mismatched '('"},
			{"./designs/shop", "is not a flag"},
		} {
			r := runtest.Command(ctx, repo, ownLocal(), bin, "verify", tc.arg)
			Expect(r.Code).To(Equal(exitBadInput), "verify %q", tc.arg)
			Expect(r.Output).To(ContainSubstring(tc.says), "verify %q", tc.arg)
			Expect(r.Output).To(ContainSubstring("--label-filter="), "verify %q shows what it takes", tc.arg)
			Expect(r.Output).NotTo(ContainSubstring("DynamoDB at"), "verify %q started DynamoDB Local", tc.arg)
			Expect(r.Elapsed).To(BeNumerically("<", atOnce), "verify %q", tc.arg)
		}
		r := runtest.Command(ctx, repo, ownLocal(), bin, "verify", "--json-report=mine.json")
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(ContainSubstring("verify's own: it writes reports/verify/junit.xml and report.json"))

		// An unknown design, named alone or beside a known one, through the
		// binary (its exit code) and through make (DESIGN, split on spaces).
		for _, run := range []runtest.Ran{
			runtest.Command(ctx, repo, ownLocal(), bin, "verify", "nosuch"),
			runtest.Command(ctx, repo, ownLocal(), "make", "verify", "DESIGN=invoicing nosuch"),
		} {
			Expect(run.Output).To(ContainSubstring(`no design "nosuch": name one of`))
			for _, d := range all.Designs {
				Expect(run.Output).To(ContainSubstring(d.Name), "the refusal names the known designs")
			}
			Expect(run.Output).NotTo(ContainSubstring("DynamoDB at"), "an unknown design started DynamoDB Local")
			Expect(run.Elapsed).To(BeNumerically("<", exitWait), "make builds the command first")
		}
		r = runtest.Command(ctx, repo, ownLocal(), bin, "verify", "nosuch")
		Expect(r.Code).To(Equal(exitBadInput))
		for f, want := range before {
			b, err := os.ReadFile(filepath.Join(reportsDir(), f))
			Expect(err).NotTo(HaveOccurred(), "bad input removed reports/verify/%s", f)
			Expect(string(b)).To(Equal(want), "bad input changed reports/verify/%s", f)
		}
		Expect(scratchDirs(repo)).To(Equal(scratchBefore))
	})

	It("runs twice at once in one checkout, docs/verify.md's single-pattern example and make verify DESIGN=services: both pass and leave whole reports", func(ctx SpecContext) {
		// The two share the suite's DynamoDB Local: what they contend for is
		// the checkout (its suites' binaries and reports), not the service.
		local := given(shared(ctx))
		var wg sync.WaitGroup
		ran := make([]runtest.Ran, 2)
		wg.Go(func() {
			defer GinkgoRecover()
			// As docs/verify.md has it: make verify DESIGN=shop GINKGO_FLAGS=--label-filter=AP-03
			ran[0] = runtest.Command(ctx, repo, local, "make", "verify", "DESIGN=shop", "GINKGO_FLAGS=--label-filter=AP-03")
		})
		wg.Go(func() {
			defer GinkgoRecover()
			ran[1] = runtest.Command(ctx, repo, local, "make", "verify", "DESIGN=services")
		})
		wg.Wait()
		for i, r := range ran {
			Expect(r.Code).To(Equal(exitOK), "verify %d of 2 failed:\n%s", i+1, r.Output)
			Expect(r.Output).NotTo(ContainSubstring("gap:"))
			Expect(r.Output).To(MatchRegexp(`verify: [1-9]\d* specs on DynamoDB \([1-9]\d* passed, 0 failed\)`))
		}
		readme := ran[0].Output
		Expect(readme).To(MatchRegexp(`label filter "AP-03" selected 1 of \d+ catalog pattern\(s\) of shop`))
		Expect(readme).To(MatchRegexp(`(?m)^shop\s+AP-03\s`))
		Expect(readme).NotTo(MatchRegexp(`(?m)^shop\s+AP-01\s`), "a pattern outside the filter is in the gate")
		Expect(ran[1].Output).To(ContainSubstring(`verify: narrowed to design services: suites ./designs/services ./scenarios under --label-filter="design:services"`))
		Expect(ran[1].Output).To(MatchRegexp(`(?m)^services\s+AP-01\s`))
		Expect(ran[1].Output).NotTo(MatchRegexp(`(?m)^shop\s`), "another design is in the narrowed gate")

		reports, err := verify.ReadReports(filepath.Join(reportsDir(), "report.json"))
		Expect(err).NotTo(HaveOccurred(), "report.json is not whole")
		Expect(reports).NotTo(BeEmpty())
		b, err := os.ReadFile(filepath.Join(reportsDir(), "junit.xml"))
		Expect(err).NotTo(HaveOccurred())
		var junit reporters.JUnitTestSuites
		Expect(xml.Unmarshal(b, &junit)).To(Succeed(), "junit.xml is not whole")
		Expect(junit.Tests).To(BeNumerically(">", 0))
		summary, err := os.ReadFile(filepath.Join(reportsDir(), "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(MatchRegexp("Label filter: `AP-03`|Designs: `services` only"))
		Expect(scratchDirs(repo)).To(BeEmpty())
	}, SpecTimeout(20*time.Minute))

	It("stops at once, exits 3 and names the cause when DynamoDB Local dies mid-run", func(ctx SpecContext) {
		report := filepath.Join(reportsDir(), "report.json")
		before, err := os.ReadFile(report)
		Expect(err).NotTo(HaveOccurred())
		run := startTagged(repo, bin, "verify", "invoicing")
		run.waitForSuites(ctx, repo)
		java := run.find(func(p runtest.Proc) bool { return strings.Contains(p.Cmdline, "DynamoDBLocal.jar") })
		Expect(java).To(HaveLen(1), "verify's DynamoDB Local")
		killed := time.Now()
		Expect(syscall.Kill(java[0].PID, syscall.SIGKILL)).To(Succeed())
		code, _ := run.waitExit(exitWait)
		fmt.Fprintf(GinkgoWriter, "verify exited %s after DynamoDB Local was killed\n", time.Since(killed).Round(time.Millisecond))
		Expect(time.Since(killed)).To(BeNumerically("<", atOnce), "the suites were not left to run on")
		Expect(code).To(Equal(exitTestBed))
		Expect(string(run.Out.Contents())).To(ContainSubstring("verify: FAILED: DynamoDB Local exited during the run; the suites were stopped at once"))
		message := string(run.Err.Contents())
		Expect(message).To(MatchRegexp(`ddbharness: DynamoDB Local \(http://127\.0\.0\.1:\d+\) exited at [\d:.]+ \(signal: killed\)`))
		Expect(message).NotTo(ContainSubstring("AWS_ENDPOINT_URL_DYNAMODB"), "the message blames a variable the user never set")
		run.expectNoneLeft()
		after, err := os.ReadFile(report)
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(Equal(before), "a run that failed midway replaced the previous report")
	}, SpecTimeout(10*time.Minute))

	It("takes ginkgo, its suites and DynamoDB Local with it when killed", func(ctx SpecContext) {
		run := startTagged(repo, bin, "verify", "invoicing")
		run.waitForSuites(ctx, repo)
		Expect(run.Command.Process.Signal(syscall.SIGKILL)).To(Succeed())
		run.waitExit(exitWait)
		run.expectNoneLeft()
	}, SpecTimeout(10*time.Minute))
})

// scratchDirs lists the per-run folders verify works in under reports/.
func scratchDirs(repo string) []string {
	GinkgoHelper()
	m, err := filepath.Glob(filepath.Join(repo, "reports", ".verify-*"))
	Expect(err).NotTo(HaveOccurred())
	return m
}

// tagEnv marks a command's environment, which every process it starts
// inherits: a process left behind is found by it even after its parent died.
const tagEnv = "DDBHARNESS_FAULT_TAG"

// tagged is a command whose descendants can be found.
type tagged struct {
	tag string
	*running
}

func startTagged(repo, name string, args ...string) *tagged {
	GinkgoHelper()
	t := &tagged{tag: strconv.FormatInt(time.Now().UnixNano(), 36)}
	t.running = start(repo, append(ownLocal(), tagEnv+"="+t.tag), name, args...)
	DeferCleanup(t.cleanup)
	return t
}

// find lists the live processes carrying the tag that match.
func (t *tagged) find(match func(runtest.Proc) bool) []runtest.Proc {
	var found []runtest.Proc
	for _, p := range runtest.Procs() {
		if p.HasEnv(tagEnv, t.tag) && match(p) {
			found = append(found, p)
		}
	}
	return found
}

// waitForSuites returns once a suite's test process runs: ginkgo builds it
// into the suite's folder (go test's unit tests run from its own cache).
func (t *tagged) waitForSuites(ctx SpecContext, repo string) {
	GinkgoHelper()
	abs, err := filepath.Abs(repo)
	Expect(err).NotTo(HaveOccurred())
	isSuite := func(p runtest.Proc) bool {
		exe := strings.Fields(p.Cmdline + " x")[0]
		return strings.HasPrefix(exe, abs+string(filepath.Separator)) && strings.HasSuffix(exe, ".test")
	}
	Eventually(ctx, func() []runtest.Proc { return t.find(isSuite) }).WithTimeout(8*time.Minute).WithPolling(200*time.Millisecond).
		ShouldNot(BeEmpty(), "no suite started")
	Expect(t.ExitCode()).To(Equal(-1), "verify ended before its suites ran")
}

// expectNoneLeft fails unless every process the command started ends
// within exitWait of the command.
func (t *tagged) expectNoneLeft() {
	GinkgoHelper()
	Eventually(func() []string {
		var left []string
		for _, p := range t.find(func(runtest.Proc) bool { return true }) {
			left = append(left, fmt.Sprintf("%d %s", p.PID, p.Cmdline))
		}
		return left
	}).WithTimeout(exitWait).WithPolling(100*time.Millisecond).Should(BeEmpty(), "processes outlived verify")
}

// cleanup kills whatever is left, so that a failed spec does not leave
// the next one a busy machine. It kills by tag rather than by process
// group: verify puts ginkgo and DynamoDB Local in groups of their own
// (start's own cleanup kills verify's).
func (t *tagged) cleanup() {
	for _, p := range t.find(func(runtest.Proc) bool { return true }) {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
}
