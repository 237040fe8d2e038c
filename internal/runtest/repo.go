package runtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/procgroup"
)

// CopyRepo copies the repository at from (its tracked and untracked,
// not ignored, files as they are in the working tree) to to, for specs that
// run make or the command as a user would without touching the checkout.
func CopyRepo(ctx context.Context, from, to string) string {
	GinkgoHelper()
	list, err := exec.CommandContext(ctx, "git", "-C", from, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	Expect(err).NotTo(HaveOccurred(), "git ls-files in %s", from)
	for _, rel := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(from, rel)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or not a plain file
		}
		b, err := os.ReadFile(src)
		Expect(err).NotTo(HaveOccurred())
		dst := filepath.Join(to, rel)
		Expect(os.MkdirAll(filepath.Dir(dst), 0o755)).To(Succeed())
		Expect(os.WriteFile(dst, b, info.Mode().Perm())).To(Succeed())
	}
	return to
}

// orphanWait is how long a finished command's output may stay held open by
// what it left running before Command stops reading it.
const orphanWait = 5 * time.Second

// Ran is a finished command: what it printed (stdout and stderr as they
// interleaved), how it exited and how long it took.
type Ran struct {
	Output  string
	Code    int // -1: killed by a signal
	Elapsed time.Duration
}

// Command runs name with args in dir, the environment plus env, and
// returns what happened; it fails the spec only when the command cannot
// start (a command whose leftovers hold its output past orphanWait is
// read as it exited). Its output also goes to GinkgoWriter. The command runs in a
// process group of its own, which ends whole when ctx ends: a make or go
// run whose children outlived it would otherwise hold the output open.
func Command(ctx context.Context, dir string, env []string, name string, args ...string) Ran {
	GinkgoHelper()
	cmd := exec.CommandContext(ctx, name, args...)
	procgroup.Own(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd) }
	cmd.WaitDelay = orphanWait
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err := cmd.Run()
	r := Ran{Output: buf.String(), Elapsed: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited, but something it left running held its output past
		// orphanWait: its own exit code stands, and the output so far.
		r.Code = cmd.ProcessState.ExitCode()
	default:
		Expect(err).NotTo(HaveOccurred(), "start %s", name)
	}
	fmt.Fprintf(GinkgoWriter, "$ %s %s   (exit %d, %s)\n%s", name, strings.Join(args, " "), r.Code, r.Elapsed.Round(time.Millisecond), r.Output)
	return r
}
