package faults_test

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// A run narrowed to one design must still gate: a catalog row with no
// spec fails it, named. The row goes into a copy of the repository, so
// that the checkout and its reports stay as they were; the copy builds
// the command and the two suites afresh, which is most of the spec's time.
var _ = Describe("make verify DESIGN=name", Label("faults"), SpecPriority(1), func() {
	It("runs that design's suite, its scenario specs and its gate alone, and fails naming a catalog pattern no spec covers", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		addUncoveredPattern(filepath.Join(repo, "designs", "services", "catalog.go"))

		r := runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=services")
		Expect(r.Code).NotTo(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("exit status 1"), "ddbharness's own exit code, as go run reports it: the run completed and found a gap")
		Expect(r.Output).To(ContainSubstring(`verify: narrowed to design services: suites ./designs/services ./scenarios under --label-filter="design:services"`))
		Expect(r.Output).To(ContainSubstring(`gap: services AP-99 uncovered pattern: no spec carries Label("AP-99")`))
		Expect(r.Output).To(ContainSubstring("verify: FAILED: 1 catalog pattern(s) without passing specs"))
		Expect(r.Output).To(MatchRegexp(`(?m)^services\s+AP-01\s.*\s[1-9]\d*\s+0\s+0\s+ok$`), "the design's own suite ran")
		Expect(r.Output).NotTo(MatchRegexp(`(?m)^(shop|accountpool|agencies|invoicing)\s`), "another design is in the gate")
		Expect(r.Output).NotTo(MatchRegexp(`lint: warning: (shop|accountpool|agencies|invoicing) `), "another design was linted")
		Expect(r.Output).To(MatchRegexp(`(?m)^verify: [1-9]\d* passed, 0 failed`))

		reports, err := verify.ReadReports(filepath.Join(repo, "reports", "verify", "report.json"))
		Expect(err).NotTo(HaveOccurred())
		var suites []string
		scenarioSpecs := 0
		for _, rep := range reports {
			suites = append(suites, rep.SuiteDescription)
			for _, sp := range rep.SpecReports {
				ran := sp.LeafNodeType == types.NodeTypeIt && sp.State.Is(types.SpecStatePassed|types.SpecStateFailureStates)
				if rep.SuiteDescription == "scenarios" && ran {
					Expect(sp.Labels()).To(ContainElement("design:services"), "a scenario spec of another design ran: %s", sp.FullText())
					scenarioSpecs++
				}
			}
		}
		Expect(suites).To(ConsistOf("services", "scenarios"))
		Expect(scenarioSpecs).To(BeNumerically(">", 0), "no scenario spec of services ran")
		summary, err := os.ReadFile(filepath.Join(repo, "reports", "verify", "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(ContainSubstring("Designs: `services` only"))
	}, SpecTimeout(10*time.Minute))
})

// A suite whose process crashes writes no report: verify must say so, with
// the crash's own text, instead of counting what the other suites passed.
var _ = Describe("make verify with a suite that crashes", Label("faults"), SpecPriority(1), func() {
	It("reports the crash, its text and the suite, and exits 1", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		// The spec blocks until its goroutine's panic ends the process.
		crash := "package services_test\n\nimport . \"github.com/onsi/ginkgo/v2\"\n\n" +
			"var _ = Describe(\"a spec whose goroutine panics\", func() {\n\tIt(\"crashes its process\", func() {\n" +
			"\t\tgo func() { panic(\"crash-marker-7ab3\") }()\n\t\tselect {}\n\t})\n})\n"
		Expect(os.WriteFile(filepath.Join(repo, "designs", "services", "crash_test.go"), []byte(crash), 0o644)).To(Succeed())

		r := runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=services")
		Expect(r.Output).To(ContainSubstring("exit status 1"), "ddbharness's own exit code: the run found a failure")
		Expect(r.Output).To(ContainSubstring("panic: crash-marker-7ab3"), "the crash's own text")
		Expect(r.Output).To(ContainSubstring("suite did not run: ./designs/services: crashed before it reported"))
		Expect(r.Output).To(ContainSubstring("verify: FAILED: 1 suite(s) crashed before they reported"))
		Expect(r.Output).NotTo(ContainSubstring(`add a Describe("AP-01`), "its patterns are not said to lack specs")
		Expect(r.Output).To(MatchRegexp(`(?m)^verify: \d+ passed, 0 failed, 1 suite\(s\) crashed`))
	}, SpecTimeout(10*time.Minute))
})

// addUncoveredPattern puts a pattern no spec carries first in the catalog
// file's Patterns.
func addUncoveredPattern(catalog string) {
	GinkgoHelper()
	insertAfter(catalog, "Patterns: []designs.Pattern{\n",
		`{ID: "AP-99", Name: "uncovered pattern", Op: designs.GetItem, Index: designs.MainTable},`+"\n")
}
