package scaffold_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
)

// multiAttributeImport takes an MCP data model whose GSI is keyed by
// several attributes (internal/workbench/testdata/mcp_tournament.json:
// matches by tournamentId and region, ordered by round and bracket) to a
// green make verify HOSTILE=1 with every pattern covered, in the import
// walkthrough's copy of the repository and on its DynamoDB Local; exports
// it back to an MCP model that imports to the same schema; and checks
// that a NoSQL Workbench export, which cannot hold such a key, is refused
// by name.
func multiAttributeImport(ctx SpecContext, repo, out string, env []string) {
	GinkgoHelper()
	Expect(run(ctx, repo, env, "make", "import-model", "MODEL=internal/workbench/testdata/mcp_tournament.json", "NAME=tournament")).
		To(ContainSubstring("import-model: wrote design tournament from table Matches: 2 entities, 9 patterns"))
	// Hostile: the generated specs hold their answers and their writes'
	// invariants with the patterns' calls behind the fault profile (the
	// gallery's plain make verify above proves the same generator's
	// answers exact on a quiet DynamoDB Local).
	verified := run(ctx, repo, env, "make", "verify", "DESIGN=tournament", "HOSTILE=1")
	Expect(verified).To(ContainSubstring("the gate counted the 9 catalog pattern(s) of tournament"))
	Expect(verified).To(ContainSubstring("verify: hostile: each spec's body meets these fault rules"))
	Expect(verified).To(MatchRegexp(`verify: [1-9]\d* specs on DynamoDB \([1-9]\d* passed, 0 failed\)`))
	Expect(verified).To(MatchRegexp(`tournament +AP-05 +query ByTournamentRegion by TournamentId, Region +ByTournamentRegion +Query .* ok`))
	Expect(verified).NotTo(ContainSubstring("gap:"))
	Expect(verified).NotTo(ContainSubstring("verify: FAILED"))

	By("export-model in the MCP format, imported back: the same schema, the GSI keyed by its four attributes")
	exported := filepath.Join(out, "tournament.json")
	run(ctx, repo, env, "make", "export-model", "DESIGN=tournament", "FORMAT=mcp", "OUT="+exported)
	Expect(run(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "import-model", "-name", "tournamentback", exported)).
		To(ContainSubstring("wrote design tournamentback"))
	Expect(schemaOf(repo, "tournamentback")).To(Equal(schemaOf(repo, "tournament")))
	Expect(schemaOf(repo, "tournament")).To(ContainSubstring(`PKs: []string{"tournamentId", "region"}, SKs: []string{"round", "bracket"}`))

	By("export-model as a NoSQL Workbench model: refused by name, exit 2")
	refused := runtest.Command(ctx, repo, env, "go", "run", "-trimpath", "-buildvcs=false", "./cmd/ddbharness", "export-model", "tournament")
	Expect(refused.Code).NotTo(BeZero(), refused.Output)
	Expect(refused.Output).To(ContainSubstring("exit status 2"), "bad input, as go run reports the command's exit")
	Expect(refused.Output).To(ContainSubstring("GSI ByTournamentRegion is keyed by partition key (tournamentId, region), sort key (round, bracket)"))
}
