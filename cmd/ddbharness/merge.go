package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// runReport runs `ddbharness report merge|compare ...`: its first
// argument names the subcommand, which reads the rest.
func runReport(ctx context.Context, cmd *flag.FlagSet, args []string) error {
	if err := parseFlags(cmd, args); err != nil {
		return err
	}
	switch cmd.Arg(0) {
	case "compare":
		return runCompare(ctx, cmd.Args()[1:])
	case "merge":
		return runMerge(ctx, cmd.Args()[1:])
	}
	return badInputf("report: want %s", reportUsage)
}

// runMerge runs `ddbharness report merge [--out DIR] DIR...`: the report
// folders of every shard of one run, merged into one run folder whose
// report reads as if one machine had made all their calls.
func runMerge(ctx context.Context, args []string) error {
	fs := newFlags("report merge", mergeArgs, "")
	root := fs.String("out", "reports", "folder the merged report goes in")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInputf("report merge: no folder given: name the report folder of every shard of the run")
	}
	if strings.TrimSpace(*root) == "" {
		return badInputf("report merge: --out is empty: name the folder the merged report goes in (default reports)")
	}
	shards, sc, err := readShards(ctx, fs.Args())
	if err != nil {
		return err
	}
	out, err := bench.Merge(ctx, sc, shards)
	if err != nil && ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return badInputf("report %v", err)
	}
	return writeMerged(ctx, *root, sc, shards, out)
}

// readShards reads the shards' folders, and finds the scenario they ran
// in this checkout: a merge models the run with the scenario's own
// settings.
func readShards(ctx context.Context, dirs []string) ([]bench.Shard, workload.Scenario, error) {
	var shards []bench.Shard
	for _, dir := range dirs {
		s, err := report.ReadShard(ctx, dir)
		if err != nil && ctx.Err() != nil {
			return nil, workload.Scenario{}, errInterrupted
		}
		if err != nil {
			return nil, workload.Scenario{}, badInputf("report merge: %v", err)
		}
		shards = append(shards, s)
	}
	name := shards[0].File.Run.Scenario
	sc, ok := scenarios.Find(name)
	if !ok {
		return nil, sc, badInputf("report merge: %s is a run of scenario %q, which this ddbharness does not have: merge with the checkout that ran it", shards[0].Dir, name)
	}
	return shards, sc, nil
}

// writeMerged writes the merged run's folder under root, its calls
// included, and exits as the run would have: 3 when a shard's test bed
// failed, interrupted when a shard was.
func writeMerged(ctx context.Context, root string, sc workload.Scenario, shards []bench.Shard, out bench.Outcome) error {
	dir, err := report.NewFolder(root, out)
	if err != nil {
		return err
	}
	out.ResultsFile = filepath.Join(dir, report.ResultsFile)
	out.ResultsErr = mergeResults(ctx, shards, out.ResultsFile)
	err = report.WriteTo(dir, out)
	fmt.Printf("%s: %s\n  %s\n", sc.Name, dir, report.Headline(out))
	switch {
	case err != nil:
		return err
	case out.Failure != nil:
		// The merged report says how and when; the run is not a measurement.
		return testBedFailed(fmt.Errorf("report merge: a shard's test bed failed (%s): the merged run is marked failed (report: %s)", report.FailureReason(out.Failure), dir))
	case out.Interrupted:
		fmt.Println("a shard was interrupted: the merged run is partial, and its report says so")
		return errInterrupted
	}
	return nil
}

// mergeResults writes the shards' calls to path as one results file, put
// in place only when whole: a merge that fails leaves no results.bin that
// looks like the run's calls.
func mergeResults(ctx context.Context, shards []bench.Shard, path string) error {
	f, err := userfile.Create(path, 0o644)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if err := errors.Join(bench.MergeResults(ctx, shards, w), w.Flush()); err != nil {
		return err
	}
	return f.Commit()
}
