package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// groups are the ginkgo runs suites goes in at once: the design suites,
// the engine's (bench and its endpoint, whose specs run whole scenarios
// for seconds at a paced rate) and the rest of the harness's, the
// scenarios' drivers with it. Each runs its suites one after the other,
// and a suite waits on DynamoDB Local or on its pacer more than it
// computes, so three at a time keep a 2-core machine busy where one would
// leave it half idle.
var groups = []string{"designs", "engine", "harness"}

// groupOf is the group a suite's package runs in.
func groupOf(importPath string) string {
	switch {
	case strings.Contains(importPath, "/designs/"):
		return "designs"
	case strings.HasSuffix(importPath, "/bench"), strings.HasSuffix(importPath, "/bench/endpoint"):
		return "engine"
	}
	return "harness"
}

// mode is how a run's suites run: failOnEmpty (no label filter of the
// user's: an empty suite is a mistake), hostile (the fault profile) and
// race (built with Go's race detector).
type mode struct{ failOnEmpty, hostile, race bool }

// suites runs every suite once against endpoint, in its group, the groups
// at once, each writing its own reports into dir (mergeReports joins them).
func suites(ctx context.Context, reap *reaper, ginkgoBin, endpoint, dir string, all []testPackage, bins, extra []string, m mode) error {
	byGroup := map[string][]string{}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	for i, p := range all {
		g := groupOf(p.ImportPath)
		path := p.Dir
		if bins != nil {
			path = bins[i]
		}
		rel, err := filepath.Rel(wd, path)
		if err != nil {
			return err
		}
		byGroup[g] = append(byGroup[g], "./"+rel)
	}
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, g := range groups {
		out := &lines{mu: &mu, w: os.Stdout}
		wg.Go(func() {
			errs[i] = ginkgo(ctx, reap, ginkgoBin, endpoint, dir, g, byGroup[g], extra, m, out)
			out.flush()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// lines forwards what it is written to w in whole lines only, under mu, so
// that the ginkgo runs writing at once never cut into each other's
// lines (a suite's progress dots arrive with its result line).
type lines struct {
	mu  *sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *lines) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		l.mu.Lock()
		_, err := l.w.Write(l.buf[:i+1])
		l.mu.Unlock()
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush writes what is left after the last newline.
func (l *lines) flush() {
	if len(l.buf) > 0 {
		l.mu.Lock()
		_, _ = l.w.Write(append(l.buf, '\n'))
		l.mu.Unlock()
		l.buf = nil
	}
}

// ginkgo runs one group's suites once each, in parallel processes, against
// endpoint, writing its reports into dir. suites are the test binaries
// linkSuites placed, or the suites' folders, which ginkgo then builds as
// linkSuites would (suiteFlags). It has its own
// process group, so a Ctrl-C reaches it once, through us, and the JVM is
// stopped only after the suites have cleaned up. Without a label filter
// of the user's an empty suite is a mistake (m.failOnEmpty); with one,
// most suites rightly select nothing, and Run fails only when none
// selected anything. A group with no suite runs nothing and writes empty reports.
func ginkgo(ctx context.Context, reap *reaper, ginkgoBin, endpoint, dir, group string, suites []string, extra []string, m mode, out io.Writer) error {
	report, junit := "report-"+group+".json", "junit-"+group+".xml"
	if len(suites) == 0 {
		if err := os.WriteFile(filepath.Join(dir, report), []byte("[]"), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, junit), []byte("<testsuites></testsuites>"), 0o644)
	}
	// --output-interceptor-mode=none: a suite process that crashes (a panic
	// in a goroutine a spec started) takes what it intercepted with it, its
	// panic text included; uncaptured, that text reaches the output.
	args := []string{"-p", "--keep-going", "--randomize-all", "--timeout=10m", "--output-interceptor-mode=none",
		"--output-dir=" + dir, "--junit-report=" + junit, "--json-report=" + report}
	if !strings.HasSuffix(suites[0], ".test") {
		args = append(args, suiteFlags(m.race)...) // ginkgo builds the suites, as linkSuites would have
	}
	if m.failOnEmpty {
		args = append(args, "--fail-on-empty")
	}
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		args = append(args, "--no-color")
	}
	args = append(append(args, extra...), suites...)
	cmd := exec.Command(ginkgoBin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = os.Environ()
	if env, _ := testbed.LoadEnv(); env.Endpoint == "" {
		cmd.Env = append(cmd.Env, testbed.EnvRunEndpoint+"="+endpoint)
	}
	if m.hostile {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", testbed.EnvHostile, hostileSeed))
	}
	wait, err := reap.startGroup(ctx, cmd)
	if err != nil {
		return fmt.Errorf("run ginkgo: %w", err)
	}
	return wait()
}

// ginkgoBinary is the path of the module's ginkgo tool, built if needed.
// verify runs it directly rather than under go tool, so that its process
// group holds ginkgo and its suites and nothing between.
func ginkgoBinary(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "tool", "-n", "ginkgo").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return "", fmt.Errorf("find ginkgo (go tool -n ginkgo): %w; run verify from the repository's root", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// checkRaceDetector refuses a run with Go's race detector (verify --race)
// that cannot build with it: it needs a C compiler and cgo.
// The refusal says what to install, before anything starts.
func checkRaceDetector(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, "go", "env", "CGO_ENABLED", "CC").Output()
	if err != nil {
		return fmt.Errorf("go env CGO_ENABLED CC: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return fmt.Errorf("go env CGO_ENABLED CC printed %q", out)
	}
	cc := strings.Fields(lines[1])
	if len(cc) == 0 {
		return failure.BadInputf("verify: go env CC is empty: --race runs the specs with Go's race detector, which needs a C compiler (install gcc, or set CC; or leave out --race)")
	}
	if _, err := exec.LookPath(cc[0]); err != nil {
		return failure.BadInputf("verify: no C compiler (%s) is on PATH: --race runs the specs with Go's race detector, which needs one; install it (apt-get install gcc) and run again, or leave out --race", cc[0])
	}
	// Checked after the compiler: Go turns cgo off when it finds none.
	if lines[0] != "1" {
		return failure.BadInputf("verify: CGO_ENABLED=%s: --race runs the specs with Go's race detector, which needs cgo (unset CGO_ENABLED, or set it to 1; or leave out --race)", lines[0])
	}
	return nil
}
