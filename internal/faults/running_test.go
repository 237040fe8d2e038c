package faults_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/ddbharness/ddbharness/internal/procgroup"
)

// running is a command the suite started in the background, the one way
// it runs one: a gexec session, with its standard output and error also
// gathered together in the order they came, and the time it ended. The
// spec kills it if it is still running at the end.
type running struct {
	*gexec.Session
	mu    sync.Mutex
	out   bytes.Buffer
	end   time.Time
	ended chan struct{} // closed once end is set
}

func (r *running) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	GinkgoWriter.Write(p)
	return r.out.Write(p)
}

// Output is everything the command printed so far, both streams.
func (r *running) Output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// start runs name with args in dir (empty: this one), the environment
// plus env, in a process group of its own: the spec's end kills the group,
// so nothing the command started outlives the spec.
func start(dir string, env []string, name string, args ...string) *running {
	GinkgoHelper()
	cmd := exec.Command(name, args...)
	procgroup.Own(cmd)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	r := &running{ended: make(chan struct{})}
	s, err := gexec.Start(cmd, r, r)
	Expect(err).NotTo(HaveOccurred())
	r.Session = s
	go func() {
		<-s.Exited
		r.mu.Lock()
		r.end = time.Now()
		r.mu.Unlock()
		close(r.ended)
	}()
	DeferCleanup(func() {
		_ = procgroup.Kill(cmd) // the leader may be gone, its group not
		r.Kill().Wait(exitWait)
	})
	return r
}

// startBin starts the built command with args.
func startBin(env []string, args ...string) *running {
	GinkgoHelper()
	return start("", env, bin, args...)
}

// exited says whether the command has ended.
func (r *running) exited() bool {
	select {
	case <-r.Exited:
		return true
	default:
		return false
	}
}

// waitFor waits until the output holds want at least n times, and fails the
// spec if the command ends first or takes longer than limit.
func (r *running) waitFor(want string, n int, limit time.Duration) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		if r.exited() && strings.Count(r.Output(), want) < n {
			StopTrying(fmt.Sprintf("the command exited (%d) before printing %q %d times:\n%s", r.ExitCode(), want, n, r.Output())).Now()
		}
		g.Expect(strings.Count(r.Output(), want)).To(BeNumerically(">=", n))
	}).WithTimeout(limit).WithPolling(50 * time.Millisecond).Should(Succeed())
}

// waitExit waits at most limit for the command to end and returns its exit
// code and when it ended. A command killed by a signal is -1, as in
// runtest.Ran, not gexec's 128+signal: 130 must mean the command handled a
// Ctrl-C and chose to exit so, not that SIGINT killed it.
func (r *running) waitExit(limit time.Duration) (int, time.Time) {
	GinkgoHelper()
	Eventually(r.ended).WithTimeout(limit).Should(BeClosed(), "still running %s later:\n%s", limit, r.Output())
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Command.ProcessState.ExitCode(), r.end
}
