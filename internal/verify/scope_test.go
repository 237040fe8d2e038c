package verify

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

func TestNewScope(t *testing.T) {
	cases := []struct {
		names     []string
		wantNames []string
		wantErr   []string // what a refusal says
	}{
		{names: nil, wantNames: all.Names(all.Designs)},
		{names: []string{"shop"}, wantNames: []string{"shop"}},
		{names: []string{"shop", "invoicing", "shop"}, wantNames: []string{"shop", "invoicing"}},
		{names: []string{"shop", "nosuch"}, wantErr: []string{`no design "nosuch"`, strings.Join(all.Names(all.Designs), ", "), "DESIGN=shop"}},
		{names: []string{"./designs/shop"}, wantErr: []string{"is not a flag", "not its folder", "--label-filter="}},
		{names: []string{"shop", "-v"}, wantErr: []string{`"-v" comes after a design name: flags go first`}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.names, " "), func(t *testing.T) {
			s, err := newScope(c.names)
			if c.wantErr == nil {
				if err != nil || !slices.Equal(s.names(), c.wantNames) || s.named != (len(c.names) > 0) {
					t.Errorf("newScope(%q) = %q (named %v), %v; want %q", c.names, s.names(), s.named, err, c.wantNames)
				}
				return
			}
			var bad failure.BadInput
			if !errors.As(err, &bad) {
				t.Errorf("newScope(%q) error = %v, want bad input", c.names, err)
				return
			}
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("newScope(%q) error = %q, want it to say %q", c.names, err, w)
				}
			}
		})
	}
}

func TestScopeNarrowsSuitesAndFilter(t *testing.T) {
	every, _ := newScope(nil)
	if got := every.packages(); !slices.Equal(got, []string{"./..."}) {
		t.Errorf("every design: packages() = %q, want ./...", got)
	}
	if got := every.labelFilter("AP-03"); got != "AP-03" {
		t.Errorf("every design: labelFilter(AP-03) = %q, want the user's", got)
	}
	two, err := newScope([]string{"shop", "invoicing"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := two.packages(), []string{"./designs/shop", "./designs/invoicing", "./scenarios"}; !slices.Equal(got, want) {
		t.Errorf("packages() = %q, want %q", got, want)
	}
	for user, want := range map[string]string{
		"":      "design:shop || design:invoicing",
		"AP-03": "(design:shop || design:invoicing) && (AP-03)",
	} {
		if got := two.labelFilter(user); got != want {
			t.Errorf("labelFilter(%q) = %q, want %q", user, got, want)
		}
	}
	// Run appends the narrowed filter after the user's flags (ginkgo keeps
	// the last value: the cmd package's tests check that).
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(filepath.Join("..", "..")); err != nil { // checkDirs looks for designs/<name>
		t.Fatal(err)
	}
	o := Options{GinkgoArgs: []string{"--label-filter=AP-03", "-v"}, Filter: "AP-03", Designs: []string{"shop", "invoicing"}, StartDynamo: testbed.Start}
	sc, args, err := plan(o)
	if want := []string{"--label-filter=AP-03", "-v", "--label-filter=" + two.labelFilter("AP-03")}; err != nil || !slices.Equal(args, want) || !slices.Equal(sc.names(), two.names()) {
		t.Errorf("plan(%+v) = %q, %q, %v; want %q, %q", o, sc.names(), args, err, two.names(), want)
	}
}

// TestPerDesignSuites keeps perDesignSuites true: a suite on DynamoDB (its
// tests import ddbtest) outside designs/ whose specs carry a design's label
// holds specs per design, and a narrowed verify must run it.
func TestPerDesignSuites(t *testing.T) {
	root := filepath.Join("..", "..")
	perDesign := regexp.MustCompile(`Label\([^)]*(\.Label\(\)|"design:)`)
	labels, dynamo := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch rel = filepath.ToSlash(rel); {
		case e.IsDir() && slices.Contains([]string{"designs", "internal/faults", "internal/scaffold", "reports", ".git"}, rel):
			return filepath.SkipDir // designs' own suites; suites verify does not run
		case e.IsDir() || !strings.HasSuffix(rel, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		dir := "./" + filepath.ToSlash(filepath.Dir(rel))
		labels[dir] = labels[dir] || perDesign.Match(b)
		dynamo[dir] = dynamo[dir] || bytes.Contains(b, []byte(`"`+ddbtestPackage+`"`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range labels {
		if labels[dir] && dynamo[dir] && !slices.Contains(perDesignSuites, dir) {
			t.Errorf("%s labels specs with a design: add it to perDesignSuites, so that make verify DESIGN=name runs them", dir)
		}
	}
	for _, dir := range perDesignSuites {
		if !labels[dir] || !dynamo[dir] {
			t.Errorf("perDesignSuites lists %s, which is no suite on DynamoDB with specs labelled per design: remove it", dir)
		}
	}
}
