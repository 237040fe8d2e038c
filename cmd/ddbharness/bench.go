package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// runBench runs the named scenarios (each design's default when none is
// named), each on a fresh embedded DynamoDB Local or on the given endpoint,
// and writes a report per run. Ctrl-C stops the run in progress, still
// writes its report, and runs no further scenario.
func runBench(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	list := fs.Bool("list", false, "list the scenarios and exit")
	target := fs.Float64("target-rate", 0, "forecast throttling at this many requests per second of the mix")
	duration := fs.Duration("duration", 0, "measure each scenario this long instead of its own duration")
	root := fs.String("out", "reports", "folder the reports go in")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ddbharness bench [flags] [SCENARIO|DESIGN|all ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		return listScenarios(os.Stdout)
	}
	runs, err := pickScenarios(fs.Args())
	if err != nil {
		return err
	}
	var written []string
	for _, sc := range runs {
		if *duration > 0 {
			sc.Duration = *duration
		}
		dir, out, err := benchOne(ctx, sc, *target, *root)
		if err != nil {
			return err
		}
		written = append(written, dir)
		fmt.Printf("%s: %s\n  %s\n", sc.Name, dir, headline(out))
		if out.Interrupted {
			fmt.Println("interrupted: the report holds what ran; no further scenario runs")
			break
		}
	}
	fmt.Printf("\n%d report(s) under %s; the newest is %s/latest (also named in %s/LATEST)\n", len(written), *root, *root, *root)
	return nil
}

// benchOne runs one scenario on its own DynamoDB Local: a fresh JVM per
// scenario, so one design's load never leaves the next a tired server.
func benchOne(ctx context.Context, sc workload.Scenario, target float64, root string) (string, bench.Outcome, error) {
	srv, err := ddblocal.Start(ctx)
	if err != nil {
		return "", bench.Outcome{}, err
	}
	defer srv.Stop()
	fmt.Fprintf(os.Stderr, "%s: DynamoDB at %s; %s\n", sc.Name, srv.Endpoint, sc.About)
	out, err := bench.Run(ctx, ddblocal.Client(srv.Endpoint), sc, engine.Progress(os.Stderr), engine.TargetRate(target))
	if err != nil {
		return "", out, err
	}
	dir, err := report.Write(root, out)
	return dir, out, err
}

// pickScenarios turns names into scenarios: a scenario name
// ("shop/constant-partitions"), a design name (its default), or "all".
func pickScenarios(names []string) ([]workload.Scenario, error) {
	if len(names) == 0 {
		return scenarios.Defaults(), nil
	}
	var out []workload.Scenario
	for _, n := range names {
		if n == "all" {
			out = append(out, scenarios.All...)
			continue
		}
		if sc, ok := scenarios.Find(n); ok {
			out = append(out, sc)
			continue
		}
		if sc, ok := scenarios.Default(n); ok {
			out = append(out, sc)
			continue
		}
		var known []string
		for _, sc := range scenarios.All {
			known = append(known, sc.Name)
		}
		return nil, fmt.Errorf("no scenario or design %q: pick one of %s, a design name, or all", n, strings.Join(known, ", "))
	}
	return out, nil
}

func listScenarios(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tDEFAULT\tPEAK/S\tDURATION\tPOOL\tABOUT")
	for _, sc := range scenarios.All {
		d, _ := scenarios.Default(sc.Design.Name)
		def := ""
		if d.Name == sc.Name {
			def = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%d\t%s\n", sc.Name, def, scenarios.Peak(sc), sc.Duration, sc.Pool, sc.About)
	}
	return tw.Flush()
}

// headline is one line on what a run showed: throughput, tail latency,
// errors, and the first limit real DynamoDB would hit.
func headline(out bench.Outcome) string {
	m := out.Total
	line := fmt.Sprintf("%.0f calls/s, p99 %s, %.1f%% errors", m.Throughput, m.Latencies.P99.Round(10*time.Microsecond), 100*(1-m.Success))
	if c := out.Capacity.Ceiling; c != nil {
		line += fmt.Sprintf("; first throttle on real DynamoDB: %s %s at %.0f requests/s (%.1f× this run)", c.Target, c.Key, c.Rate, c.Factor)
	}
	return line
}
