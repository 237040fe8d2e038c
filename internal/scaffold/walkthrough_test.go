package scaffold_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// The walkthrough's design, as docs/add-a-design.md names it.
const (
	walkName   = "library"
	walkEntity = "book"
)

// The walkthrough follows docs/add-a-design.md in a copy of the
// repository, so that section cannot drift from what the scaffold does:
// make new-design, gofmt and vet, the design's suite on DynamoDB Local,
// lint, docs/add-a-design.md's own code blocks (a pattern on GSI1, a second entity
// on GSI2 with a transaction and a filtered query, its seed, a scenario
// over three pools), the coverage gate, lint's finding on the filter, the
// scenario's specs, a short bench, and the refusal of a second make
// new-design with the same name. It needs DynamoDB Local, make and git, so
// make test (label "unit") leaves it out.
var _ = Describe("the Add a design walkthrough", Label("dynamodb", "scaffold"), func() {
	It("takes a new design from make new-design to verified patterns and a bench report", func(ctx SpecContext) {
		for _, tool := range []string{"git", "make", "gofmt"} {
			if _, err := exec.LookPath(tool); err != nil {
				Skip(tool + " is not on PATH")
			}
		}
		srv, err := testbed.Start(ctx)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		endpoint := srv.Endpoint
		out := GinkgoT().TempDir()
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(out, "repo"))
		env := []string{testbed.EnvEndpoint + "=" + endpoint}

		By("make new-design")
		Expect(run(ctx, repo, env, "make", "new-design", "NAME="+walkName, "ENTITY="+walkEntity)).
			To(ContainSubstring("new-design: wrote design " + walkName))
		pkg := "./designs/" + walkName

		By("gofmt and go vet")
		Expect(run(ctx, repo, env, "gofmt", "-l", "designs/"+walkName, "fixtures/"+walkName+".go", "scenarios/"+walkName+".go",
			"designs/all/all.go", "scenarios/scenarios.go")).To(BeEmpty())
		run(ctx, repo, env, "go", "vet", "-trimpath", pkg, "./designs/all", "./fixtures", "./scenarios", "./cmd/ddbharness")

		By("its suite passes at once")
		Expect(run(ctx, repo, env, "go", "tool", "ginkgo", "--no-color", "--trimpath", "-p", pkg)).To(ContainSubstring("6 Passed"))

		By("make new-design with the key shape given: KEY=isbn GROUP=shelf, KEY=username GROUP=none, and GROUP=tenant,region")
		shapes := []struct{ name, entity, key, group string }{
			{"bookshop", "book", "isbn", "shelf"}, {"accounts", "user", "username", "none"}, {"support", "issue", "", "tenant,region"},
		}
		var shaped []string
		for _, sh := range shapes {
			Expect(run(ctx, repo, env, "make", "new-design", "NAME="+sh.name, "ENTITY="+sh.entity, "KEY="+sh.key, "GROUP="+sh.group)).
				To(ContainSubstring("make verify DESIGN=" + sh.name))
			shaped = append(shaped, "./designs/"+sh.name)
		}
		Expect(run(ctx, repo, env, "gofmt", "-l", "designs/bookshop", "designs/accounts", "designs/support", "fixtures", "scenarios")).To(BeEmpty())
		run(ctx, repo, env, "go", "vet", "-trimpath", shaped[0], shaped[1], shaped[2], "./fixtures", "./scenarios")
		shapedRun := run(ctx, repo, env, "go", "tool", "ginkgo", "--no-color", "--trimpath", "-p", shaped[0], shaped[1], shaped[2])
		Expect(shapedRun).To(MatchRegexp(`bookshop .* 6/6 specs .* SUCCESS!`), "create, its race and two refusals (isbn, shelf), get and a miss")
		Expect(shapedRun).To(MatchRegexp(`accounts .* 5/5 specs .* SUCCESS!`), "no group: one refusal fewer")
		Expect(shapedRun).To(MatchRegexp(`support .* 7/7 specs .* SUCCESS!`), "a multi-attribute GSI1: a refusal per attribute of its key")
		schema, err := os.ReadFile(filepath.Join(repo, "designs", "accounts", "schema.go"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(schema)).NotTo(ContainSubstring("GSI1"), "GROUP=none: no GSI1")
		Expect(string(schema)).To(ContainSubstring("func UserPK(username string) string"))
		schema, err = os.ReadFile(filepath.Join(repo, "designs", "support", "schema.go"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(schema)).To(ContainSubstring(`{Name: GSI1, PKs: []string{"Tenant", "Region"}, SK: "IssueID"},`), "GROUP=tenant,region: GSI1 keyed by the item's own attributes")
		Expect(string(schema)).NotTo(ContainSubstring("GSI1PK"), "no synthetic key attribute")

		By("make lint finds nothing to warn about")
		Expect(run(ctx, repo, env, "make", "lint", "DESIGN="+walkName)).To(ContainSubstring("lint " + walkName + ": no findings"))

		By("the page's patterns on GSI1 and GSI2, the second entity, its seed and the multi-entity scenario")
		readme, err := os.ReadFile(filepath.Join(repoRoot, "docs", "add-a-design.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(applyBlocks(repo, string(readme))).To(Equal(11), "code blocks marked <!-- walkthrough: ... --> in docs/add-a-design.md")
		Expect(run(ctx, repo, env, "gofmt", "-l", "designs/"+walkName, "fixtures/"+walkName+".go", "scenarios/"+walkName+".go")).To(BeEmpty())
		run(ctx, repo, env, "go", "vet", "-trimpath", pkg, "./fixtures", "./scenarios")

		By("make verify DESIGN=library: its suite, its scenario's specs, its lint and its coverage gate")
		catalog := run(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "catalog")
		patterns := 0
		for line := range strings.Lines(catalog) {
			if f := strings.Fields(line); len(f) > 1 && f[0] == walkName {
				patterns++
			}
		}
		Expect(patterns).To(Equal(5), "library's patterns in:\n%s", catalog)
		verified := run(ctx, repo, env, "make", "verify", "DESIGN="+walkName)
		Expect(verified).To(ContainSubstring("the gate counted the 5 catalog pattern(s) of " + walkName))
		Expect(verified).To(MatchRegexp(walkName + ` +AP-05 +list member's overdue loans +GSI2 .* ok`))
		m := regexp.MustCompile(`verify: (\d+) specs on DynamoDB \(\d+ passed, 0 failed\)`).FindStringSubmatch(verified)
		Expect(m).NotTo(BeNil(), verified)
		Expect(strconv.Atoi(m[1])).To(BeNumerically(">", 10), "the design's 10 specs and its scenario's")

		By("make lint names the filtered read, and nothing else")
		lint := run(ctx, repo, env, "make", "lint", "DESIGN="+walkName)
		Expect(lint).To(ContainSubstring("lint " + walkName + ": 1 finding(s)"))
		Expect(lint).To(MatchRegexp(`GSI2 AP-05 +\[filtered-read\]`))

		By("a short bench")
		bench := run(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "bench", "--duration=1s", "--out="+filepath.Join(out, "reports"), walkName)
		Expect(bench).To(ContainSubstring("1 report(s)"))
		summary, err := os.ReadFile(filepath.Join(out, "reports", "latest", "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(ContainSubstring("zipf over member"), "the mix table names each step's pool")
		Expect(string(summary)).To(ContainSubstring("AP-05 filters"), "the report charges the filtered read")

		By("a second make new-design with the same name is refused and changes nothing")
		before := treeHashes(repo, ".")
		second := runtest.Command(ctx, repo, env, "make", "new-design", "NAME="+walkName)
		Expect(second.Code).NotTo(BeZero())
		Expect(second.Output).To(ContainSubstring("designs/" + walkName + " already exists"))
		Expect(second.Output).To(ContainSubstring("nothing was written"))
		Expect(treeHashes(repo, ".")).To(Equal(before))
	}, SpecTimeout(15*time.Minute)) // designs generated, vetted and tested: minutes each on a cold cache
})

// run runs a command in dir and returns its combined output; it fails the
// spec, showing that output, when the command fails.
func run(ctx context.Context, dir string, env []string, name string, args ...string) string {
	GinkgoHelper()
	r := runtest.Command(ctx, dir, env, name, args...)
	Expect(r.Code).To(BeZero(), "%s %s:\n%s", name, strings.Join(args, " "), r.Output)
	return r.Output
}

// block is a README code block the walkthrough applies: the marker line
// before it names the file; "IDs" after the file means "append to the
// catalog's block of pattern IDs", another word W "append to the list
// opened by the line `W: ...{`" (Patterns, GSIs), and none "write this
// file".
var block = regexp.MustCompile("(?s)<!-- walkthrough: (\\S+)(?: (\\w+))? -->\n```go\n(.*?)```\n")

// applyBlocks writes or inserts every marked block into repo and returns
// how many it applied.
func applyBlocks(repo, readme string) int {
	GinkgoHelper()
	n := 0
	for _, m := range block.FindAllStringSubmatch(readme, -1) {
		path, code := filepath.Join(repo, m[1]), m[3]
		switch m[2] {
		case "":
			Expect(os.WriteFile(path, []byte(code), 0o644)).To(Succeed())
		case "IDs":
			src, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			// The scaffold's catalog holds one const block, of the IDs:
			// the code goes before the line that closes it.
			head, rest, ok := strings.Cut(string(src), "\nconst (\n")
			Expect(ok).To(BeTrue(), "%s has the const block of pattern IDs the scaffold wrote", m[1])
			ids, tail, ok := strings.Cut(rest, "\n)\n")
			Expect(ok).To(BeTrue(), "%s closes its const block of pattern IDs", m[1])
			out := head + "\nconst (\n" + ids + "\n" + code + ")\n" + tail
			Expect(os.WriteFile(path, []byte(out), 0o644)).To(Succeed())
		default:
			src, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			// The list opens on a line "\tW: ...{" and closes on the next
			// "\t},": the code goes before the close.
			_, after, ok := strings.Cut(string(src), "\n\t"+m[2]+": ")
			Expect(ok).To(BeTrue(), "%s has the %s list the scaffold wrote", m[1], m[2])
			i := strings.Index(after, "\n\t},\n")
			Expect(i).To(BeNumerically(">=", 0), "%s closes its %s list with a line \"\t},\"", m[1], m[2])
			at := len(src) - len(after) + i + 1
			out := string(src[:at]) + code + string(src[at:])
			Expect(os.WriteFile(path, []byte(out), 0o644)).To(Succeed())
		}
		n++
	}
	return n
}

// treeHashes maps every file under root's dirs to a hash of its content
// and mode: equal maps mean nothing was written, changed or added.
func treeHashes(root string, dirs ...string) map[string]string {
	GinkgoHelper()
	hashes := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			hashes[path] = info.Mode().String() + " " + hex.EncodeToString(sum[:])
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
	}
	return hashes
}

// addedLines counts the lines of after that before does not have.
func addedLines(before, after string) int {
	seen := map[string]int{}
	for l := range strings.Lines(before) {
		seen[l]++
	}
	n := 0
	for l := range strings.Lines(after) {
		if seen[l] > 0 {
			seen[l]--
		} else {
			n++
		}
	}
	return n
}
