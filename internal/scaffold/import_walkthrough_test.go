package scaffold_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// The import walkthrough follows docs/import-a-model.md in a copy of the
// repository: the gallery model (4 facets, 2 GSIs, composite sort keys,
// attribute names with '#', '-' and a space) imported with make
// import-model, its specs green under make verify, lint and a short bench
// on it, its export imported back with the same schema, the shop design
// exported and imported back with its specs green, a model keyed by
// numbers verified, the scenario catalog's checks over every
// imported driver, a bad model refused with nothing written, and an
// MCP model with a multi-attribute GSI key taken there and back.
var _ = Describe("the Import a model walkthrough", Label("dynamodb", "scaffold"), func() {
	It("takes docs/models/gallery.json to a verified design, a lint, a bench report and back to a model", func(ctx SpecContext) {
		srv, err := testbed.Start(ctx)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		out := GinkgoT().TempDir()
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(out, "repo"))
		env := []string{testbed.EnvEndpoint + "=" + srv.Endpoint}

		By("docs/import-a-model.md's commands: import-model, verify, lint and bench")
		doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "import-a-model.md"))
		Expect(err).NotTo(HaveOccurred())
		outs := runCommands(ctx, repo, env, string(doc))
		Expect(outs).To(HaveKey("import-model"))
		Expect(outs["import-model"]).To(ContainSubstring("import-model: wrote design gallery from table Gallery: 4 entities, 9 patterns"))
		Expect(run(ctx, repo, env, "gofmt", "-l", "designs/gallery", "fixtures/gallery.go", "scenarios/gallery.go")).To(BeEmpty())
		Expect(outs).To(HaveKey("verify"), "a spec per pattern, expecting the model's sample items")
		Expect(outs["verify"]).To(ContainSubstring("the gate counted the 9 catalog pattern(s) of gallery"))
		Expect(outs["verify"]).To(MatchRegexp(`gallery +AP-09 +query ByDay by DayTime +ByDay +Query .* ok`))
		Expect(outs["verify"]).To(MatchRegexp(`verify: \d+ specs on DynamoDB \(\d+ passed, 0 failed\)`))
		specs, err := os.ReadFile(filepath.Join(repo, "designs", "gallery", "patterns_test.go"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(specs)).To(ContainSubstring(`"returns the 4 sample items of partition PHOTO#p001 in sort key order"`),
			"the query for PHOTO#p001 expects its two comments and two likes")
		Expect(outs).To(HaveKey("lint"))
		Expect(outs["lint"]).To(ContainSubstring("lint gallery: no findings"))
		Expect(outs).To(HaveKey("bench"))
		Expect(outs["bench"]).To(ContainSubstring("1 report(s)"))
		Expect(outs["bench"]).To(MatchRegexp(`gallery/steady: \d+ calls in .* errors 0`))

		By("make export-model, and its import gives back the schema")
		exported := filepath.Join(out, "gallery-out.json")
		run(ctx, repo, env, "make", "export-model", "DESIGN=gallery", "OUT="+exported)
		Expect(run(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "import-model", "-name", "galleryback", exported)).
			To(ContainSubstring("wrote design galleryback"))
		Expect(schemaOf(repo, "galleryback")).To(Equal(schemaOf(repo, "gallery")))

		By("a seed design with an LSI, two GSIs and constant partition keys, exported and imported back, proves its own fixtures")
		shopModel := filepath.Join(out, "shop.json")
		run(ctx, repo, env, "make", "export-model", "DESIGN=shop", "OUT="+shopModel)
		Expect(run(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "import-model", "-name", "shopback", shopModel)).
			To(MatchRegexp(`wrote design shopback from table shop: 6 entities, \d+ patterns`))
		Expect(run(ctx, repo, env, "go", "tool", "ginkgo", "--no-color", "--trimpath", "-p", "./designs/shopback")).To(MatchRegexp(`\d+ Passed \| 0 Failed`))

		By("a model keyed by numbers, docs/models/readings.json, imported and verified")
		Expect(run(ctx, repo, env, "make", "import-model", "MODEL=docs/models/readings.json", "NAME=readings")).
			To(ContainSubstring("import-model: wrote design readings from table readings"))
		Expect(run(ctx, repo, env, "make", "verify", "DESIGN=readings")).To(MatchRegexp(`verify: \d+ specs on DynamoDB \(\d+ passed, 0 failed\)`))

		By("the scenario catalog's own checks take the imported designs' drivers too")
		Expect(run(ctx, repo, env, "go", "tool", "ginkgo", "--no-color", "--trimpath", "--label-filter=unit", "./scenarios")).To(MatchRegexp(`\d+ Passed \| 0 Failed`))

		By("a bad model is refused with its path, exit 2, nothing written")
		bad := filepath.Join(out, "bad.json")
		Expect(os.WriteFile(bad, []byte(`{"ModelName": "x", "DataModel": [{"TableName": "T"}]}`), 0o644)).To(Succeed())
		before := treeHashes(repo, "designs", "fixtures", "scenarios")
		refused := runtest.Command(ctx, repo, env, "make", "import-model", "MODEL="+bad, "NAME=broken")
		Expect(refused.Code).NotTo(BeZero())
		Expect(refused.Output).To(ContainSubstring("$.DataModel[0].KeyAttributes.PartitionKey.AttributeName: missing"))
		Expect(refused.Output).To(ContainSubstring("nothing was written"))
		Expect(treeHashes(repo, "designs", "fixtures", "scenarios")).To(Equal(before))

		By("an MCP model whose GSI is keyed by several attributes, in the same copy")
		multiAttributeImport(ctx, repo, out, env)
	}, SpecTimeout(15*time.Minute)) // a dozen builds and vets: minutes each on a cold cache
})

// commands is a shell block of make commands the walkthrough runs, marked
// in the page as it runs them.
var commands = regexp.MustCompile("(?s)<!-- walkthrough: run -->\n```sh\n(.*?)```\n")

// runCommands runs, in order and in repo, the make commands of every block
// of page marked "walkthrough: run", and returns each one's output by its
// target; run prints how long each took.
func runCommands(ctx context.Context, repo string, env []string, page string) map[string]string {
	GinkgoHelper()
	outs := map[string]string{}
	for _, m := range commands.FindAllStringSubmatch(page, -1) {
		for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
			args := strings.Fields(line)
			Expect(len(args)).To(BeNumerically(">=", 2), "a command of the page: %q", line)
			Expect(args[0]).To(Equal("make"), "the page's commands are make targets: %q", line)
			outs[args[1]] = run(ctx, repo, env, args[0], args[1:]...)
		}
	}
	return outs
}

// schemaOf is the Schema literal of an imported design, its package name
// left out.
func schemaOf(repo, design string) string {
	GinkgoHelper()
	src, err := os.ReadFile(filepath.Join(repo, "designs", design, "schema.go"))
	Expect(err).NotTo(HaveOccurred())
	m := regexp.MustCompile(`(?s)var Schema = designs\.Schema\{.*?\n\}\n`).FindString(string(src))
	Expect(m).NotTo(BeEmpty(), "designs/%s/schema.go declares Schema", design)
	return strings.TrimSpace(m)
}
