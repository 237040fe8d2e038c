package faults_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
)

// A design change that makes a pattern dearer must fail the baseline
// check, naming the pattern and the figure. The change goes into a copy
// of the repository, whose bench/baseline.json is the checkout's. The
// spec takes under a minute on an idle machine (copy, link, DynamoDB
// Local's start, a 2 s bench); its bound is narrow's, for the same work
// under make faults' load.
var _ = Describe("make bench-check", Label("faults"), SpecPriority(1), func() {
	It("exits 99 naming the pattern and figure when a design widens an item its write pattern writes", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		widenClientEmailItem(filepath.Join(repo, "designs", "invoicing", "schema.go"))

		r := runtest.Command(ctx, repo, given(shared(ctx)), "make", "bench-check", "SCENARIO=invoicing")
		Expect(r.Output).To(ContainSubstring("exit status 99"), "ddbharness's own exit code, as go run reports it")
		Expect(r.Code).NotTo(Equal(exitOK))
		// AP-02 writes the client and its email item in one transaction:
		// the email item grows from under 1 KB to over 1 KB, so each call
		// takes one more write unit, twice for the transaction: 4 → 6.
		Expect(r.Output).To(ContainSubstring("✗ regressed: invoicing/month-end AP-02: wcu per call 4 → 6 (+50.0%)"))
		Expect(r.Output).To(MatchRegexp(`✗ regressed: invoicing/month-end AP-02: bytes grown per call [\d.]+ → [\d.]+`))
		Expect(r.Output).To(ContainSubstring("figures regressed from the baseline in invoicing/month-end"))
		Expect(r.Output).NotTo(ContainSubstring("AP-06: "), "a read pattern the change does not touch regressed")
	}, SpecTimeout(10*time.Minute))
})

// widenClientEmailItem gives invoicing's email item (written by AP-02, and
// by AP-05 when an email changes) an attribute of 1,500 bytes.
func widenClientEmailItem(path string) {
	GinkgoHelper()
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	src := string(b)
	for old, wide := range map[string]string{
		"ClientID string `dynamodbav:\"ClientID\"`\n\t}":                "ClientID string `dynamodbav:\"ClientID\"`\n\t\tNote     string `dynamodbav:\"Note\"`\n\t}",
		"return clientEmailItem{keys{k, k, typeClientEmail}, clientID}": "return clientEmailItem{keys{k, k, typeClientEmail}, clientID, \"" + strings.Repeat("x", 1500) + "\"}",
	} {
		Expect(strings.Count(src, old)).To(Equal(1), "invoicing's schema.go no longer has %q: widen another item", old)
		src = strings.Replace(src, old, wide, 1)
	}
	Expect(os.WriteFile(path, []byte(src), 0o644)).To(Succeed())
}
