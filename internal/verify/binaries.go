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
	"strconv"
	"strings"
	"syscall"

	"github.com/onsi/ginkgo/v2/types"
)

// testFlags are how every test of a run is built: -trimpath keeps the
// checkout's folder out of the build cache's keys and the binary, so a
// copy of the repository (the walkthrough's, a fault spec's) builds the
// same bytes; race adds Go's race detector (verify --race, as CI runs
// it), which makes the suites' own processes several times the CPU.
func testFlags(race bool) []string {
	if race {
		return []string{"-trimpath", "-race"}
	}
	return []string{"-trimpath"}
}

// suiteFlags are how the suites' binaries are built: testFlags, and -w,
// which leaves out the DWARF that nothing reads and that is most of a
// link. (The unit tests go without it: with -ldflags, go test links every
// package's test binary again before finding its result cached.)
func suiteFlags(race bool) []string {
	return append(testFlags(race), "-ldflags=-w")
}

// linkSuites builds the suites' test binaries into the cache (cacheDir/
// suites, or suites-race with the race detector) with one go test -c, which links them in parallel and leaves a
// binary whose build ID already matches its sources untouched: a warm run
// links nothing, where ginkgo would link every suite again into a
// temporary file (about 3 CPU-seconds each). Each binary is then hard
// linked into its suite's folder (ginkgo runs a binary in the folder it
// lies in), and those paths are what ginkgo is given; remove takes them
// away. The cache is shared by every checkout on the machine, so the
// build holds a lock on it; a rebuild replaces a cached file rather than
// writing into it, so a link made earlier keeps its bytes. bins is nil
// when the suites are better left to ginkgo: the user's ginkgo flags
// change how a suite is built, or the build failed (ginkgo then builds
// each suite and reports what does not compile, as it always has).
func linkSuites(ctx context.Context, reap *reaper, cacheDir string, race bool, suites []testPackage, extra []string, log io.Writer) (bins []string, remove func()) {
	remove = func() {}
	if len(suites) == 0 || buildsItself(extra) {
		return nil, remove
	}
	root := suitesDir(cacheDir, race)
	if err := os.MkdirAll(root, 0o755); err != nil {
		fmt.Fprintf(log, "verify: no folder for the suites' binaries (%v); ginkgo builds them\n", err)
		return nil, remove
	}
	unlock, err := waitLock(ctx, log, filepath.Join(root, ".lock"),
		"verify: another verify on this machine is building its suites; waiting for it")
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(log, "%v; ginkgo builds the suites\n", err)
		}
		return nil, remove
	}
	defer unlock()
	layers := byName(suites)
	cached := make([]string, len(suites))
	for i, layer := range layers {
		dir := filepath.Join(root, strconv.Itoa(i))
		args := append(append([]string{"test", "-c"}, suiteFlags(race)...), "-o", dir+string(filepath.Separator))
		for _, j := range layer {
			args = append(args, suites[j].ImportPath)
			cached[j] = filepath.Join(dir, suites[j].Name+".test")
		}
		if out, err := goCommand(ctx, reap, args); err != nil {
			fmt.Fprintf(log, "verify: go test -c of the suites failed (%v); ginkgo builds them and says what does not compile\n%s", err, out)
			return nil, remove
		}
	}
	var made []string
	remove = func() {
		for _, b := range made {
			_ = os.Remove(b)
		}
	}
	for j, p := range suites {
		bin := filepath.Join(p.Dir, p.Name+".test")
		_ = os.Remove(bin) // one a killed run left behind
		if err := linkOrCopy(cached[j], bin); err != nil {
			remove()
			fmt.Fprintf(log, "verify: cannot place %s (%v); ginkgo builds the suites\n", bin, err)
			return nil, func() {}
		}
		made = append(made, bin)
	}
	return made, remove
}

// suitesDir is where linkSuites caches the suites' binaries: a folder
// for each kind of build, so that a run of each kind in turn relinks
// nothing.
func suitesDir(cacheDir string, race bool) string {
	if race {
		return filepath.Join(cacheDir, "suites-race")
	}
	return filepath.Join(cacheDir, "suites")
}

// byName splits suites (by index) into layers in which no two share a
// package name: go test -c writes each binary as <name>.test into one
// folder, so two packages both named bench need two folders. Nearly
// always there is one layer.
func byName(suites []testPackage) [][]int {
	var layers [][]int
	seen := map[string]int{}
	for i, p := range suites {
		n := seen[p.Name]
		seen[p.Name] = n + 1
		if n == len(layers) {
			layers = append(layers, nil)
		}
		layers[n] = append(layers[n], i)
	}
	return layers
}

// buildsItself reports whether the user's ginkgo flags change how a suite
// is built (-tags, -cover, -gcflags, a profile, ...): ginkgo then builds
// the suites with them, as the user asked.
func buildsItself(extra []string) bool {
	flags := append(append(types.GinkgoFlags{}, types.GoBuildFlags...), types.GoRunFlags...)
	for _, a := range extra {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name == "" {
			continue
		}
		for _, f := range flags {
			if name == f.Name || (f.DeprecatedName != "" && name == f.DeprecatedName) {
				return true
			}
		}
	}
	return false
}

// goCommand runs go with args in its own process group (reap), returning
// what it printed.
func goCommand(ctx context.Context, reap *reaper, args []string) ([]byte, error) {
	var out bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	wait, err := reap.startGroup(ctx, cmd)
	if err != nil {
		return nil, err
	}
	err = wait()
	return out.Bytes(), err
}

// linkOrCopy makes dst hold src's bytes: a hard link, or a copy across
// file systems.
func linkOrCopy(src, dst string) error {
	err := os.Link(src, dst)
	if err == nil || !errors.Is(err, syscall.EXDEV) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}
