package faults_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"time"
	"unicode"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
)

// An imported MCP data model is verified as any design is, in a copy of
// the repository, under hostile verify: its specs, and the reach gate,
// which holds each pattern that writes in a transaction to meeting a
// conflict past the design's retries and a throttled cancellation. A model whose text carries
// control characters is imported there too, and the terminal sees them
// escaped; and one that declares its traffic, whose bench sets the first
// limit against the declared peak, which a headroom threshold gates.
var _ = Describe("make import-model of an MCP data model", Label("faults"), SpecPriority(1), func() {
	It("takes testdata/mcp_shop.json to a verify whose specs all pass, its TransactWriteItems pattern in conflict and throttled among them, and whose only gaps are the two patterns the import cannot generate; a model with control characters in its text prints them escaped", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		model, err := filepath.Abs(filepath.Join(repoRoot, "internal", "workbench", "testdata", "mcp_shop.json"))
		Expect(err).NotTo(HaveOccurred())
		r := runtest.Command(ctx, repo, ownLocal(), "make", "import-model", "MODEL="+model, "NAME=mcpshop")
		Expect(r.Code).To(Equal(exitOK), r.Output)

		r = runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=mcpshop", "HOSTILE=1")
		Expect(r.Output).To(MatchRegexp(`verify: [1-9]\d* specs on DynamoDB \([1-9]\d* passed, 0 failed\)`))
		Expect(r.Output).To(MatchRegexp(`(?m)^mcpshop\s+11\s+Ship an order\s+main-table\s+TransactWriteItems\s+[1-9]\d*\s+0\s+0\s+ok`))
		var gaps []string
		for _, m := range regexp.MustCompile(`(?m)^gap: mcpshop (\S+) `).FindAllStringSubmatch(r.Output, -1) {
			gaps = append(gaps, m[1])
		}
		Expect(gaps).To(ConsistOf("13", "14"), "the external pattern and the chained commands, which stay uncovered by design")
		Expect(r.Output).To(ContainSubstring("verify: FAILED: 2 catalog pattern(s) without passing specs"))

		Expect(r.Output).NotTo(ContainSubstring("gap: hostile:"),
			"every pattern's specs met each fault its calls can meet: Ship an order's transaction its conflict past the design's retries and its throttled cancellation among them")

		By("a model whose names and descriptions carry control characters: the import's output shows them escaped")
		data, err := os.ReadFile(model)
		Expect(err).NotTo(HaveOccurred())
		var m map[string]any
		Expect(json.Unmarshal(data, &m)).To(Succeed())
		aps := m["access_patterns"].([]any)
		aps[0].(map[string]any)["description"] = "Get a profile\x1b[2J\nimport-model: wrote design spoofed"
		aps[12].(map[string]any)["reason"] = "mail\x1b]0;title\a\r\n  note: spoofed"
		data, err = json.Marshal(m)
		Expect(err).NotTo(HaveOccurred())
		hostile := filepath.Join(GinkgoT().TempDir(), "hostile.json")
		Expect(os.WriteFile(hostile, data, 0o644)).To(Succeed())
		r = runtest.Command(ctx, repo, ownLocal(), bin, "import-model", "-name", "hostile", hostile)
		Expect(r.Code).To(Equal(exitOK), r.Output)
		for _, c := range r.Output {
			Expect(c == '\n' || !unicode.IsControl(c)).To(BeTrue(), "the output holds %U raw:\n%q", c, r.Output)
		}
		Expect(r.Output).NotTo(MatchRegexp(`(?m)^(import-model: wrote design spoofed|  note: spoofed)`))
		Expect(r.Output).To(ContainSubstring(`mail\x1b]0;title\a\r\n  note: spoofed`))
	}, SpecTimeout(10*time.Minute))

	It("takes a model that declares its traffic to a scenario of that mix, whose report sets the first limit against the declared peak, which a headroom threshold gates", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		data, err := os.ReadFile(filepath.Join(repoRoot, "internal", "workbench", "testdata", "mcp_shop.json"))
		Expect(err).NotTo(HaveOccurred())
		var m map[string]any
		Expect(json.Unmarshal(data, &m)).To(Succeed())
		aps := m["access_patterns"].([]any)
		for i, rps := range map[int]float64{0: 300, 1: 100, 2: 50, 4: 40, 10: 10} {
			aps[i].(map[string]any)["rps"] = rps
		}
		data, err = json.Marshal(m)
		Expect(err).NotTo(HaveOccurred())
		declared := filepath.Join(GinkgoT().TempDir(), "traffic.json")
		Expect(os.WriteFile(declared, data, 0o644)).To(Succeed())
		r := runtest.Command(ctx, repo, ownLocal(), bin, "import-model", "-name", "traffic", declared)
		Expect(r.Code).To(Equal(exitOK), r.Output)
		r = runtest.Command(ctx, repo, given(shared(ctx)), "make", "bench", "SCENARIO=traffic", "DURATION=2s", "THRESHOLDS=headroom > 1000x")
		Expect(r.Output).To(ContainSubstring("the imported model's access patterns at the rates it declares, 500 requests/s at peak"))
		Expect(r.Output).To(MatchRegexp(`first limit at \d+ requests/s against the model's declared peak of 500 \(\d+\.\d× headroom\)`))
		// make runs the command with go run, which reports its exit code.
		Expect(r.Output).To(ContainSubstring("exit status 99"), "headroom > 1000x, against the declared peak, is breached")
	}, SpecTimeout(10*time.Minute))
})
