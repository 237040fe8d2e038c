package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/ddbharness/ddbharness/bench/gate"
)

// compareArgs are the arguments of report compare.
const compareArgs = "[--fail-on 'wcu>0%,p99>20%'] BASE_DIR NEW_DIR"

// runCompare runs `ddbharness report compare BASE NEW`: two report
// folders side by side, per pattern, each figure with its change; the
// latencies tested on the calls themselves (Mann–Whitney U), "~" when the
// change is not significant. A --fail-on rule a figure breaks exits 99.
func runCompare(ctx context.Context, args []string) error {
	fs := newFlags("report compare", compareArgs, "two bench reports side by side, per pattern, with their change")
	var rules []gate.FailOn
	fs.Func("fail-on", "exit 99 when a figure regressed by more than N% in any pattern: FIGURE>N% (repeatable, or comma-separated), like wcu>0% or p99>20%; a latency change counts only when significant", func(s string) error {
		r, err := gate.ParseFailOn(s)
		rules = append(rules, r...)
		return err
	})
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return badInputf("report compare: want two report folders, BASE and NEW, got %d: ddbharness report compare %s", fs.NArg(), compareArgs)
	}
	runs, err := readRuns(ctx, fs.Args())
	if err != nil {
		return err
	}
	rows := gate.Compare(runs[0], runs[1])
	if err := printCompare(runs, rows); err != nil {
		return err
	}
	return failOn(rows, rules)
}

// readRuns reads the two report folders, and warns when they ran two
// scenarios: their patterns may be another design's.
func readRuns(ctx context.Context, dirs []string) ([2]gate.Run, error) {
	var runs [2]gate.Run
	for i, dir := range dirs {
		r, err := gate.ReadRun(ctx, dir)
		if err != nil && ctx.Err() != nil {
			return runs, errInterrupted
		}
		if err != nil {
			return runs, badInputf("report compare: %v", err)
		}
		runs[i] = r
	}
	if a, b := runs[0].Out.Scenario, runs[1].Out.Scenario; a != b {
		fmt.Fprintf(os.Stderr, "report compare: warning: %s ran %s and %s ran %s: the patterns compared may be another design's\n", runs[0].Dir, a, runs[1].Dir, b)
	}
	return runs, nil
}

// printCompare writes the rows as a table, a pattern's name on its first
// row only, after the move of the first limit and before how each figure
// was compared.
func printCompare(runs [2]gate.Run, rows []gate.Row) error {
	fmt.Println(gate.FirstLimitMove(runs[0], runs[1]))
	fmt.Printf("%s: %s → %s\n", runs[0].Out.Scenario, runs[0].Dir, runs[1].Dir)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATTERN\tFIGURE\tBASE\tNEW\tCHANGE")
	last := ""
	for _, r := range rows {
		p := r.Pattern
		if p == last {
			p = ""
		}
		last = r.Pattern
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p, r.Figure, r.Format(r.Base), r.Format(r.New), r.ChangeText())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Printf("rcu, wcu, cost and bytes are per served call (a call throttled to the end or cancelled for a conflict took no units), computed from item sizes (compared exactly); p50 and p99 are tested on every call's latency (Mann–Whitney U, ~ when p > %.2f)\n", gate.Alpha)
	return nil
}

// failOn prints each --fail-on rule the rows breach and exits 99 on any.
func failOn(rows []gate.Row, rules []gate.FailOn) error {
	if bad := gate.Breaches(rows, rules); len(bad) > 0 {
		for _, b := range bad {
			fmt.Printf("✗ %s\n", b)
		}
		return breach{fmt.Errorf("report compare: %d figure(s) regressed past --fail-on", len(bad))}
	}
	if len(rules) > 0 {
		fmt.Println("✓ no figure regressed past --fail-on")
	}
	return nil
}

// reportUsage names report's subcommands.
var reportUsage = strings.Join([]string{"ddbharness report merge " + mergeArgs, "ddbharness report compare " + compareArgs}, ", or ")
