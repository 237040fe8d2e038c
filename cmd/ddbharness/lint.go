package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/lint"
)

// runLint checks designs (all of them when none is named) against
// DynamoDB's limits, on fixtures seeded in memory: no DynamoDB is needed.
// Findings are advice, so lint exits 0 with findings; it fails only when a
// design is unknown or cannot be seeded.
func runLint(ctx context.Context, fs *flag.FlagSet, args []string) error {
	asJSON := fs.Bool("json", false, "print the findings as one JSON array")
	pool := fs.Int("pool", lint.DefaultPool, fmt.Sprintf("entities to seed, %d to %d (half as many are seeded too, to see what grows)", minLintPool, maxLintPool))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *pool < minLintPool || *pool > maxLintPool {
		return badInputf("lint: --pool=%d: want %d to %d entities (default %d)", *pool, minLintPool, maxLintPool, lint.DefaultPool)
	}
	ds, err := pickDesigns(fs.Args())
	if err != nil {
		return err
	}
	var found []lint.Finding
	for _, d := range ds {
		f, err := lint.Run(ctx, d, lint.WithPool(*pool))
		if err != nil {
			return err
		}
		if !*asJSON {
			if err := lint.WriteText(os.Stdout, d.Name, f); err != nil {
				return err
			}
		}
		found = append(found, f...)
	}
	if *asJSON {
		return lint.WriteJSON(os.Stdout, found)
	}
	return nil
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
