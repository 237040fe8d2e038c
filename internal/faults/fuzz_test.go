package faults_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fuzzWait bounds the fuzzing run: about 10 s of fuzzing on a quiet
// machine after a build that instruments every package the test links,
// the standard library's included, which took 2 minutes on a cold cache at
// load 6 on two cores.
const fuzzWait = 5 * time.Minute

// fuzzes runs the fuzz target of pkg for execs inputs with one worker and
// expects it to pass having fuzzed; broke says what a failure would mean.
// One worker: the suite's other specs share the machine's cores, and a
// second worker would take its turn from them. A count, not a duration:
// Go 1.26's fuzzing coordinator can fail a target that is still running an
// input when a -fuzztime duration ends, with "context deadline exceeded"
// and no crasher (golang/go#75804), which a loaded machine makes likely.
func fuzzes(pkg, target string, execs int, broke string) {
	GinkgoHelper()
	r := start(repoRoot, nil, "go", "test", "-trimpath", "-run", "^$", "-fuzz", "^"+target+"$", "-fuzztime", fmt.Sprintf("%dx", execs), "-parallel", "1", pkg)
	code, _ := r.waitExit(fuzzWait)
	Expect(code).To(Equal(exitOK), "%s:\n%s", broke, r.Output())
	// go test passes a -fuzz that matches no fuzz test: its progress
	// lines show the fuzzing ran.
	Expect(r.Output()).To(ContainSubstring("fuzz: elapsed:"), "the fuzzing did not run:\n%s", r.Output())
}

var _ = Describe("import-model given fuzzed model text", Label("faults"), SpecPriority(1), func() {
	It("generates only the code it writes, whatever text the model holds", func() {
		fuzzes("./internal/workbench", "FuzzGeneratedCodeHoldsOnlyWhatItWrote", 400, "model text reached the generated code as code")
	})
})

var _ = Describe("import-model given a fuzzed name for an attribute of a multi-attribute GSI key", Label("faults"), SpecPriority(1), func() {
	It("generates the same code as for a plain name, the name only in names, literals and comments", func() {
		fuzzes("./internal/workbench", "FuzzMultiAttributeKeyNamesHoldOnlyWhatTheyWrote", 250, "a key attribute's name reached the generated code as code")
	})
})

var _ = Describe("local --limits given fuzzed requests and answers", Label("faults"), SpecPriority(1), func() {
	It("sends what the client sent and gives back what DynamoDB Local answered, but for what the meter asked besides", func() {
		fuzzes("./bench/endpoint/askmore", "FuzzAskedComesOutAgain", 100000, "an edit changed what it should have kept")
	})
})
