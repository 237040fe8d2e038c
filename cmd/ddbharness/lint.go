package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// runLint checks designs (all of them when none is named) against
// DynamoDB's limits, on fixtures seeded in memory: no DynamoDB is needed.
// Findings are advice, so lint exits 0 with findings; it fails only when a
// design or scenario is unknown or cannot be seeded.
func runLint(ctx context.Context, fs *flag.FlagSet, args []string) error {
	return lintTo(ctx, os.Stdout, fs, args)
}

// lintTo is runLint printing to w.
func lintTo(ctx context.Context, w io.Writer, fs *flag.FlagSet, args []string) error {
	asJSON := fs.Bool("json", false, "print the findings as one JSON array")
	pool := fs.Int("pool", lint.DefaultPool, fmt.Sprintf("entities to seed, %d to %d (half as many are seeded too, to see what grows)", minLintPool, maxLintPool))
	scenario := fs.String("scenario", "", "probe the write steps of this scenario only (default: every scenario of each design); lints its design")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *pool < minLintPool || *pool > maxLintPool {
		return badInputf("lint: --pool=%d: want %d to %d entities (default %d)", *pool, minLintPool, maxLintPool, lint.DefaultPool)
	}
	opts := []lint.Option{lint.Pool(*pool)}
	names := fs.Args()
	if *scenario != "" {
		sc, err := lintScenario(*scenario, names)
		if err != nil {
			return err
		}
		opts, names = append(opts, lint.Scenarios(sc)), []string{sc.Design.Name}
	}
	ds, err := pickDesigns(names)
	if err != nil {
		return err
	}
	var found []lint.Finding
	for _, d := range ds {
		f, err := lint.Run(ctx, d, opts...)
		if err != nil {
			return err
		}
		if !*asJSON {
			if err := lint.WriteText(w, d.Name, f); err != nil {
				return err
			}
		}
		found = append(found, f...)
	}
	if *asJSON {
		return lint.WriteJSON(w, found)
	}
	return nil
}

// lintScenario is the scenario -scenario names, which must be of the
// designs named, if any.
func lintScenario(name string, designs []string) (workload.Scenario, error) {
	sc, ok := scenarios.Find(name)
	if !ok {
		return sc, badInputf("lint: --scenario=%q: no such scenario: pick one of %s (see ddbharness bench -list)", name, scenarioNames())
	}
	for _, d := range designs {
		if d != sc.Design.Name {
			return sc, badInputf("lint: --scenario=%s is a scenario of design %s, not of %s: name %s alone, or no design", name, sc.Design.Name, d, sc.Design.Name)
		}
	}
	return sc, nil
}

// The range of lint's --pool: it seeds half the pool too, and holds both
// in memory.
const (
	minLintPool = 2
	maxLintPool = 100_000
)

// pickDesigns returns the named designs, in the order of all.Designs, or
// every design when names is empty.
func pickDesigns(names []string) ([]designs.Design, error) {
	if len(names) == 0 {
		return all.Designs, nil
	}
	var out []designs.Design
	for _, n := range names {
		d, ok := all.Find(n)
		if !ok {
			return nil, badInputf("lint: no design %q: pick one of %s (see ddbharness catalog)", n, strings.Join(designNames(), ", "))
		}
		out = append(out, d)
	}
	return out, nil
}

// designNames are every design's names, in order.
func designNames() []string { return all.Names(all.Designs) }
