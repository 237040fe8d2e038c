package verify

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Suites reach DynamoDB through ddbtest (which hands them the run's
// DynamoDB Local) and run under Ginkgo, or are the launcher's own
// (testbed).
const (
	ddbtestPackage = "github.com/ddbharness/ddbharness/internal/ddbtest"
	testbedPackage = "github.com/ddbharness/ddbharness/internal/testbed"
	ginkgoPackage  = "github.com/onsi/ginkgo/v2"
)

// testPackage is one package of the repository with tests.
type testPackage struct {
	ImportPath   string
	Name         string // the package's name: its test binary is <Name>.test
	Dir          string
	TestImports  []string
	XTestImports []string
	TestGoFiles  []string
	XTestGoFiles []string
}

// otherTargets are the packages whose tests verify leaves to a make target
// of their own, which CI runs: they build ddbharness or work in a copy of
// the repository, minutes that verify's loop should not wait for.
var otherTargets = []string{
	"github.com/ddbharness/ddbharness/internal/scaffold", // make walkthrough
	"github.com/ddbharness/ddbharness/internal/faults",   // make faults
	"github.com/ddbharness/ddbharness/deploy",            // make deploy-check: builds the image's binary and make build's
}

// splitPackages lists the packages with tests that patterns match (go
// list's) in two: those whose tests reach DynamoDB (ginkgo runs them
// against the run's DynamoDB Local, in parallel processes) and the rest,
// pure code, which go test runs with its result cache: a package nothing
// changed in is not built or run again. otherTargets are left out.
func splitPackages(ctx context.Context, patterns []string) (dynamo, pure []testPackage, err error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p testPackage
		if err := dec.Decode(&p); err != nil {
			return nil, nil, fmt.Errorf("go list: %w", err)
		}
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 || slices.Contains(otherTargets, p.ImportPath) {
			continue
		}
		if p.onDynamo() {
			dynamo = append(dynamo, p)
		} else {
			pure = append(pure, p)
		}
	}
	return dynamo, pure, nil
}

// onDynamo reports whether p's tests are a suite on DynamoDB: a Ginkgo
// suite that imports ddbtest, or the launcher's own. Tests that take only
// data from ddbtest (its wire corpus's schema, the name of its report
// entry) without Ginkgo are pure code.
func (p testPackage) onDynamo() bool {
	imports := slices.Concat(p.TestImports, p.XTestImports)
	return p.ImportPath == testbedPackage || slices.Contains(imports, ddbtestPackage) && slices.Contains(imports, ginkgoPackage)
}

// unitTotals counts the top-level tests go test ran (a Ginkgo suite of pure
// code is one test).
type unitTotals struct{ passed, failed int }

// runUnits runs the pure packages' tests (with the race detector when
// race) under go test, printing go test's own line per package (cached ones say so) and
// the output of every test that failed. go test and its test binaries run
// in a process group of their own, which ends with the run (reap).
func runUnits(ctx context.Context, reap *reaper, race bool, pkgs []testPackage, w io.Writer) (unitTotals, error) {
	var t unitTotals
	if len(pkgs) == 0 {
		return t, nil
	}
	args := append(append([]string{"test"}, testFlags(race)...), "-json")
	for _, p := range pkgs {
		args = append(args, p.ImportPath)
	}
	cmd := exec.Command("go", args...)
	cmd.Stderr = w
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return t, err
	}
	wait, err := reap.startGroup(ctx, cmd)
	if err != nil {
		return t, fmt.Errorf("go test: %w", err)
	}
	output := map[string][]string{} // a test's lines, until it passes
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e struct {
			Action, Package, Test, Output string
			Elapsed                       float64
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		id := e.Package + " " + e.Test
		switch {
		case e.Action == "output" && e.Test != "":
			output[id] = append(output[id], e.Output)
		case e.Action == "output" && (strings.HasPrefix(e.Output, "ok ") || strings.HasPrefix(e.Output, "FAIL") || strings.HasPrefix(e.Output, "---")):
			fmt.Fprint(w, e.Output)
		case e.Test == "" || strings.Contains(e.Test, "/"):
		case e.Action == "pass":
			t.passed++
			delete(output, id)
		case e.Action == "fail":
			t.failed++
			fmt.Fprint(w, strings.Join(output[id], ""))
			delete(output, id)
		}
	}
	err = wait()
	if err != nil && t.failed == 0 {
		return t, fmt.Errorf("go test: %w", err)
	}
	return t, nil
}
