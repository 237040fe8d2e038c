package verify

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOtherTargetsLeftOut: the suites that have a make target of their own
// (make walkthrough, make faults, make deploy-check) exist (go list refuses
// a path it cannot find) and are not among what verify runs.
func TestOtherTargetsLeftOut(t *testing.T) {
	left := []string{"./internal/scaffold", "./internal/faults", "./deploy"}
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if dynamo, pure, err := splitPackages(ctx, left); err != nil || len(dynamo)+len(pure) > 0 {
		t.Errorf("splitPackages(%q) = %d, %d packages, %v; want none, no error", left, len(dynamo), len(pure), err)
	}
	dynamo, pure, err := splitPackages(ctx, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Concat(dynamo, pure) {
		if slices.ContainsFunc(left, func(dir string) bool { return strings.HasSuffix(p.ImportPath, dir[1:]) }) {
			t.Errorf("verify runs %s, which has a make target of its own", p.ImportPath)
		}
	}
	if len(dynamo) == 0 || len(pure) == 0 {
		t.Errorf("splitPackages(./...) = %d packages on DynamoDB, %d of pure code; want some of each", len(dynamo), len(pure))
	}
}

// TestOnDynamoWantsGinkgoAndDdbtest: a package whose tests import ddbtest
// for its data alone, without Ginkgo, is pure code, which go test runs;
// a Ginkgo suite that imports ddbtest, or testbed's, runs on DynamoDB.
func TestOnDynamoWantsGinkgoAndDdbtest(t *testing.T) {
	for _, c := range []struct {
		p    testPackage
		want bool
	}{
		{testPackage{ImportPath: "x/partiql", TestImports: []string{"testing", ddbtestPackage}}, false},
		{testPackage{ImportPath: "x/verify", TestImports: []string{"testing", ddbtestPackage}, XTestImports: []string{"testing"}}, false},
		{testPackage{ImportPath: "x/emulate", XTestImports: []string{ginkgoPackage}}, false},
		{testPackage{ImportPath: "x/shop", XTestImports: []string{ginkgoPackage, ddbtestPackage}}, true},
		{testPackage{ImportPath: "x/bench", TestImports: []string{ginkgoPackage}, XTestImports: []string{ddbtestPackage}}, true},
		{testPackage{ImportPath: testbedPackage}, true},
	} {
		if got := c.p.onDynamo(); got != c.want {
			t.Errorf("%s (tests import %q, %q): onDynamo() = %v, want %v", c.p.ImportPath, c.p.TestImports, c.p.XTestImports, got, c.want)
		}
	}
}
