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

// Defects only a fault reveals: a read that answers "not found" for any
// error it meets, and a create that answers "no such client" for a
// transaction cancelled for throttling. DynamoDB Local never throttles,
// so make verify stays green; hostile verify throttles a spec's first
// GetItem past the SDK's retries and cancels a transaction for
// throttling once its conflict has outlasted the design's retries, and
// must fail naming each pattern and its rule. The defects go into a copy
// of the repository, at AP-05's read of the client (through designs.Get)
// and at AP-03's transaction: breaking designs.Get or designs.Tx itself
// would rebuild every package that imports designs, minutes on a loaded
// 2-core machine, for the same proof.
var _ = Describe("make verify HOSTILE=1", Label("faults"), SpecPriority(1), func() {
	It("fails a design whose patterns turn a throttle into ErrNotFound, naming each pattern and its fault, where make verify passes", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		swallowGetErrors(filepath.Join(repo, "designs", "invoicing", "client.go"))
		throttleAsMissingClient(filepath.Join(repo, "designs", "invoicing", "invoice.go"))
		filter := "GINKGO_FLAGS=--label-filter=AP-05,AP-03"

		quiet := runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=invoicing", filter)
		Expect(quiet.Code).To(Equal(exitOK), "make verify finds nothing wrong: DynamoDB Local never throttles")
		Expect(quiet.Output).To(MatchRegexp(`(?m)^invoicing\s+AP-05\s.*\s[1-9]\d*\s+0\s+0\s+ok$`))
		Expect(quiet.Output).To(MatchRegexp(`(?m)^invoicing\s+AP-03\s.*\s[1-9]\d*\s+0\s+0\s+ok$`))

		hostile := runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=invoicing", "HOSTILE=1", filter)
		Expect(hostile.Code).NotTo(Equal(exitOK))
		Expect(hostile.Output).To(ContainSubstring("verify: hostile: each spec's body meets these fault rules"), "the profile is printed")
		Expect(hostile.Output).To(MatchRegexp(`AP-05: client \S+: not found`), "the pattern's wrong answer, named by its pattern")
		Expect(hostile.Output).To(ContainSubstring("op=GetItem first=3 error=ThrottlingException (fired 3 of 3 calls matched)"), "the fault it met")
		Expect(hostile.Output).To(MatchRegexp(`gap: invoicing AP-05 update client details: [1-9]\d* spec\(s\) failed`))
		Expect(hostile.Output).To(MatchRegexp(`AP-03: invoice \S+: not found`), "a throttled transaction answered as a missing client")
		Expect(hostile.Output).To(ContainSubstring("op=TransactWriteItems first=1 error=ThrottlingError (fired 1 of 1 calls matched)"))
		Expect(hostile.Output).To(MatchRegexp(`gap: invoicing AP-03 create invoice: [1-9]\d* spec\(s\) failed`))
	}, SpecTimeout(10*time.Minute))

	// A spec that passes and proves too little: accountpool's AP-11 spec
	// of a delete, sent once, stops at its read's throttle under the
	// profile and checks that nothing changed; the delete's transaction
	// never meets its conflict. The reach gate names the pattern and the
	// operation, and fails the run.
	It("fails a pattern whose specs never reach its write's fault, naming the design, pattern, operation and fix", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		sendOnce(filepath.Join(repo, "designs", "accountpool", "leases_test.go"))
		r := runtest.Command(ctx, repo, given(shared(ctx)), "make", "verify", "DESIGN=accountpool", "HOSTILE=1",
			"GINKGO_FLAGS=--label-filter=AP-11 --focus=ends.the.lease")
		Expect(r.Code).NotTo(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("exit status 1"), "verify exits 1, as for a pattern without a passing spec")
		Expect(r.Output).To(MatchRegexp(`(?m)^accountpool\s+AP-11\s.*\s1\s+0\s+\d+\s+ok$`), "the spec passes")
		Expect(r.Output).To(ContainSubstring("gap: hostile: accountpool AP-11 delete lease: its specs call TransactWriteItems, " +
			"and none met its fault (op=TransactWriteItems first=4 error=TransactionConflict)"))
		Expect(r.Output).To(ContainSubstring("as env.Again does"), "the fix")
		Expect(r.Output).To(ContainSubstring("2 fault(s) no spec of the pattern met"), "the summary counts them: the conflict and the throttle of its transaction")
	}, SpecTimeout(10*time.Minute))
})

// sendOnce makes file's specs send their call once where they send it
// through env.Again.
func sendOnce(file string) {
	GinkgoHelper()
	b, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	Expect(string(b)).To(ContainSubstring("env.Again("), "%s sends no call through env.Again", file)
	once := strings.ReplaceAll(string(b), "env.Again(", "once(") + "\nfunc once(call func() error, _ func()) error { return call() }\n"
	Expect(os.WriteFile(file, []byte(once), 0o644)).To(Succeed())
}

// throttleAsMissingClient makes AP-03 answer ErrNotFound, the outcome of
// its check that the client exists, for a transaction DynamoDB cancelled
// for throttling.
func throttleAsMissingClient(file string) {
	GinkgoHelper()
	insertAfter(file, "if err := tx.Write(ctx, t.DB); err != nil {\n",
		"\t\tif designs.CancelledForCapacity(err) {\n\t\t\terr = designs.ErrNotFound\n\t\t}\n")
}

// swallowGetErrors makes AP-05's read of the client answer ErrNotFound
// for any error designs.Get hands back.
func swallowGetErrors(file string) {
	GinkgoHelper()
	insertAfter(file, "old, err := designs.Get[Client](ctx, t.DB, t.Name, Schema.Key(ClientPK(c.ID), ClientSK(c.ID)), true)\n",
		"\tif err != nil {\n\t\terr = designs.ErrNotFound\n\t}\n")
}

// insertAfter writes text into file after the first anchor, which the
// file must hold: a copy's code broken on purpose, where a spec says.
func insertAfter(file, anchor, text string) {
	GinkgoHelper()
	b, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	Expect(string(b)).To(ContainSubstring(anchor), "%s no longer holds the code to break", file)
	Expect(os.WriteFile(file, []byte(strings.Replace(string(b), anchor, anchor+text, 1)), 0o644)).To(Succeed())
}
