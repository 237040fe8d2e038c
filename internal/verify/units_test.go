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
