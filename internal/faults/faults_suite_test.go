// Package faults_test runs ddbharness as a user would, on the real DynamoDB
// Local, and breaks things on purpose: the service killed mid-run, bad
// flags and variables, hostile names, concurrent runs, broken caches. Each
// spec proves the run says what went wrong, promptly, with the exit code
// the README documents. make faults runs it (CI does); make verify and
// make test leave it out.
package faults_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

func TestFaults(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "faults")
}

// The specs run three at a time (make faults), and the suite lasts as
// long as its busiest process: the longest of them carry a SpecPriority
// (2 for the ordered chains of verify and of the remote endpoint, 50 to
// 100 s each; 1 for single specs of 25 s and more), so that Ginkgo starts
// them first and the short ones fill in around them: left to the random
// order of the containers, a long chain can begin last.

// repoRoot is the checkout under test.
var repoRoot = filepath.Join("..", "..")

// bin is ddbharness built from the checkout, once for the suite.
var bin string

// Bounds on waits for processes, which a loaded machine (load 16 on two
// cores) stretches many times over: atOnce for what must not wait on
// anything (a refusal, a run that stops), well below the waits it must not
// make (a minute's ready timeout, a 30 s run); exitWait for a process to
// exit once asked.
const (
	atOnce   = 20 * time.Second
	exitWait = time.Minute
)

// Exit codes, as the README documents them.
const (
	exitOK          = 0
	exitFailed      = 1
	exitBadInput    = 2
	exitTestBed     = 3
	exitBreached    = 99
	exitInterrupted = 130
)

var _ = SynchronizedBeforeSuite(func() []byte {
	dir, err := os.MkdirTemp("", "ddbh-faults-*")
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(dir, "ddbharness")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", path, "./cmd/ddbharness") // make's BUILD_FLAGS: its go run finds this build cached
	build.Dir = repoRoot
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "go build:\n%s", out)
	return []byte(path)
}, func(path []byte) {
	bin = string(path)
})

var _ = SynchronizedAfterSuite(func() {
	if sharedLocal != nil {
		sharedLocal.Stop()
	}
}, func() {
	_ = os.RemoveAll(filepath.Dir(bin))
})

// ownLocal is the environment for a command that must start its own
// DynamoDB Local: no endpoint from the user or from a surrounding run.
func ownLocal() []string {
	return []string{testbed.EnvEndpoint + "=", testbed.EnvRunEndpoint + "="}
}
