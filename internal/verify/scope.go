package verify

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/lint"
)

// perDesignSuites are the harness suites that hold specs per design (table
// entries labelled with the design's label: scenario drivers, the seeding
// check, capacity attribution, the scenario catalog's checks). A run
// narrowed to designs keeps their entries for those designs; the other
// harness suites test the harness whatever the design, and are left to a
// full make verify. TestPerDesignSuites keeps this list true.
var perDesignSuites = []string{"./scenarios"}

// scope is what one verify covers: every design and every suite, or
// (make verify DESIGN=name) the named designs only: their own suites, the
// per-design harness suites narrowed to them by label, their lint and
// their coverage gate.
type scope struct {
	designs []designs.Design
	named   bool
}

// newScope picks the designs that names name, in the order given, or every
// design when names is empty. An unknown name is refused, naming the known
// ones, before anything starts.
func newScope(names []string) (scope, error) {
	if len(names) == 0 {
		return scope{designs: all.Designs}, nil
	}
	s := scope{named: true}
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			return scope{}, failure.BadInputf("verify: %q comes after a design name: flags go first (ddbharness verify [ginkgo flags] [DESIGN ...])", n)
		}
		d, ok := all.Find(n)
		if !ok {
			return scope{}, unknownDesign(n)
		}
		if !slices.Contains(s.names(), n) {
			s.designs = append(s.designs, d)
		}
	}
	return s, nil
}

// unknownDesign says what verify takes instead of name: a design's name
// (not its folder), or a ginkgo flag.
func unknownDesign(name string) error {
	hint := ""
	if strings.ContainsAny(name, "/.") {
		hint = " and is not a flag; a design is named by its name, not its folder"
	}
	return failure.BadInputf("verify: no design %q%s: name one of %s (make verify DESIGN=shop runs that design alone), "+
		"or narrow the run with ginkgo flags, e.g. GINKGO_FLAGS='--label-filter=%q'",
		name, hint, strings.Join(all.Names(all.Designs), ", "), "design:shop && AP-03")
}

// names are the scope's design names.
func (s scope) names() []string { return all.Names(s.designs) }

// label is the label filter that selects the scope's designs' specs: their
// suites carry the label, and so do the per-design harness entries.
func (s scope) label() string {
	var ls []string
	for _, d := range s.designs {
		ls = append(ls, d.Label())
	}
	return strings.Join(ls, " || ")
}

// labelFilter is the filter the suites run under: the user's (may be ""),
// and within the scope's designs when narrowed.
func (s scope) labelFilter(user string) string {
	switch {
	case !s.named:
		return user
	case user == "":
		return s.label()
	default:
		return "(" + s.label() + ") && (" + user + ")"
	}
}

// packages are the go list patterns of the suites the scope runs.
func (s scope) packages() []string {
	if !s.named {
		return []string{"./..."}
	}
	var out []string
	for _, d := range s.designs {
		out = append(out, "./"+filepath.ToSlash(designDir(d)))
	}
	return append(out, perDesignSuites...)
}

// designDir is where a design's package and suite live.
func designDir(d designs.Design) string { return filepath.Join("designs", d.Name) }

// checkDirs refuses, before anything starts, a named design whose folder
// is not where its suite should be.
func (s scope) checkDirs() error {
	if !s.named {
		return nil
	}
	for _, d := range s.designs {
		if fi, err := os.Stat(designDir(d)); err != nil || !fi.IsDir() {
			return failure.BadInputf("verify: design %s has no folder %s: verify runs a design's suite from designs/<name>; run it from the repository's root", d.Name, designDir(d))
		}
	}
	return nil
}

// describe says what a narrowed run runs under filter, and what it leaves
// out.
func (s scope) describe(filter string) string {
	what := "design " + strings.Join(s.names(), ", ")
	if len(s.designs) > 1 {
		what = "designs " + strings.Join(s.names(), ", ")
	}
	return fmt.Sprintf("verify: narrowed to %s: suites %s under --label-filter=%q\n"+
		"verify: lint and coverage gate: %s only; the unit tests of pure code and the other harness suites do not run (make test, make verify)\n",
		what, strings.Join(s.packages(), " "), filter, what)
}

// lintWarnings prints the findings of ds as "lint: warning: ..." lines
// for verify: warnings only, so a lint error is printed as one too and
// never fails the run; complete is false when one was.
func lintWarnings(ctx context.Context, w io.Writer, ds []designs.Design) (complete bool) {
	complete = true
	for _, d := range ds {
		fs, err := lint.Run(ctx, d)
		if err != nil {
			fmt.Fprintln(w, "lint: warning: could not lint:", err)
			complete = false
			continue
		}
		for _, f := range fs {
			fmt.Fprintln(w, f.Warning())
		}
	}
	return complete
}
