package faults_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fuzzWait bounds the fuzzing run: 10 s of fuzzing after a build that
// instruments every package the test links, the standard library's
// included, which took 2 minutes on a cold cache at load 6 on two cores.
const fuzzWait = 5 * time.Minute

// fuzzes runs the fuzz target of pkg for 10 s with one worker and expects
// it to pass having fuzzed; broke says what a failure would mean. One
// worker: the suite's other specs share the machine's cores, and a second
// worker would take its turn from them.
func fuzzes(pkg, target, broke string) {
	GinkgoHelper()
	r := start(repoRoot, nil, "go", "test", "-trimpath", "-run", "^$", "-fuzz", "^"+target+"$", "-fuzztime", "10s", "-parallel", "1", pkg)
	code, _ := r.waitExit(fuzzWait)
	Expect(code).To(Equal(exitOK), "%s:\n%s", broke, r.Output())
	// go test passes a -fuzz that matches no fuzz test: its progress
	// lines show the fuzzing ran.
	Expect(r.Output()).To(ContainSubstring("fuzz: elapsed:"), "the fuzzing did not run:\n%s", r.Output())
}

var _ = Describe("import-model given fuzzed model text", Label("faults"), SpecPriority(1), func() {
	It("generates only the code it writes, whatever text the model holds", func() {
		fuzzes("./internal/workbench", "FuzzGeneratedCodeHoldsOnlyWhatItWrote", "model text reached the generated code as code")
	})
})

var _ = Describe("import-model given a fuzzed name for an attribute of a multi-attribute GSI key", Label("faults"), SpecPriority(1), func() {
	It("generates the same code as for a plain name, the name only in names, literals and comments", func() {
		fuzzes("./internal/workbench", "FuzzMultiAttributeKeyNamesHoldOnlyWhatTheyWrote", "a key attribute's name reached the generated code as code")
	})
})

var _ = Describe("local --limits given fuzzed requests and answers", Label("faults"), SpecPriority(1), func() {
	It("sends what the client sent and gives back what DynamoDB Local answered, but for what the meter asked besides", func() {
		fuzzes("./bench/endpoint/askmore", "FuzzAskedComesOutAgain", "an edit changed what it should have kept")
	})
})
