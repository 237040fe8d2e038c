// Command ddbharness verifies and measures DynamoDB single-table designs.
//
//	ddbharness verify [ginkgo flags] [DESIGN ...]   prove every access pattern (of the designs named) on DynamoDB Local
//	ddbharness bench [SCENARIO ...]    load scenarios, capacity model and reports
//	ddbharness coverage REPORT.json    the coverage gate alone, on a Ginkgo JSON report
//	ddbharness catalog                 list every design's access patterns
//	ddbharness local [--limits]        run DynamoDB Local in the foreground, with --limits behind an endpoint that throttles as DynamoDB does
//	ddbharness new-design NAME         scaffold a design, its fixtures and scenario
//	ddbharness import-model FILE       a design from a NoSQL Workbench model
//	ddbharness export-model DESIGN     a design as a NoSQL Workbench model
//	ddbharness lint [-scenario NAME] [DESIGN ...]  check designs against DynamoDB's limits
//	ddbharness tables [-delete]        list or delete the harness's leftover tables
//	ddbharness report merge DIR...     merge the shards of a run into one report
//	ddbharness report compare BASE NEW two reports side by side, per pattern, with their change
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
)

// commands is every command, in the order usage lists them.
var commands = []command{
	{"verify", "[ginkgo run flags] [DESIGN ...]", "prove every access pattern of every design (or of those named) on DynamoDB Local", runVerify},
	{"bench", "[flags] [SCENARIO|DESIGN|all ...]", "run load scenarios (default: each design's default) and write reports", runBench},
	{"coverage", "REPORT.json", "check a Ginkgo JSON report against the catalogs", coverage},
	{"catalog", "", "list every design's access patterns", func(_ context.Context, fs *flag.FlagSet, args []string) error {
		return noArgs(fs, args, func() error { return catalog(os.Stdout) })
	}},
	{"local", "[--limits [--limits-scale S] [--conflicts off] [--port N] [--report DIR]]", "run DynamoDB Local in the foreground until Ctrl-C; with --limits, behind an endpoint any SDK can use that throttles and conflicts as DynamoDB does", runLocal},
	{"new-design", "[-entity NAME] [-key ATTR] [-group ATTR|ATTR,ATTR|none] DESIGN", "scaffold designs/DESIGN, its fixtures and scenario, and wire them in", newDesign},
	{"import-model", "[-name NAME] MODEL.json", "a design (package, specs on its sample data, fixtures, scenario) from a NoSQL Workbench model", importModel},
	{"export-model", "[-out FILE] DESIGN", "a design as a NoSQL Workbench model, its fixtures as sample items", exportModel},
	{"lint", "[-json] [-pool N] [-scenario NAME] [DESIGN ...]", "check designs against DynamoDB's limits on seeded fixtures (no DynamoDB)", runLint},
	{"tables", "[-delete] [-older-than D]", "list the ddbh-* tables left on AWS_ENDPOINT_URL_DYNAMODB (a killed run's), or delete them", runTables},
	{"report", "merge|compare ...", "merge the report folders of every shard of one run (report merge " + mergeArgs + "), or set two reports side by side (report compare " + compareArgs + ")", runReport},
}

// command is one of ddbharness's commands: its name, the arguments usage
// shows and what it does. run gets a flag set named after the command,
// whose -h prints the name, arguments and about: a command with flags
// adds them to it and parses its arguments with it.
type command struct {
	name, args, about string
	run               func(ctx context.Context, fs *flag.FlagSet, args []string) error
}

func withoutCtx(run func(fs *flag.FlagSet, args []string) error) func(context.Context, *flag.FlagSet, []string) error {
	return func(_ context.Context, fs *flag.FlagSet, args []string) error { return run(fs, args) }
}

// usage lists the commands; a command whose name and arguments fit in the
// first column has its description beside them.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: ddbharness <command> [arguments]\n\ncommands:\n")
	for _, c := range commands {
		head := strings.TrimSpace(c.name + " " + c.args)
		if len(head) <= 22 {
			fmt.Fprintf(&b, "  %-22s  %s\n", head, c.about)
		} else {
			fmt.Fprintf(&b, "  %s\n  %-22s  %s\n", head, "", c.about)
		}
	}
	b.WriteString(`
DynamoDB endpoint: AWS_ENDPOINT_URL_DYNAMODB if set, else an embedded DynamoDB Local;
bench runs on real DynamoDB with DDBHARNESS_ALLOW_REMOTE=1 and no endpoint set.
`)
	return b.String()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage())
		os.Exit(exitBadInput)
	}
	name, args := os.Args[1], os.Args[2:]
	if name == "help" || name == "-h" || name == "--help" {
		fmt.Print(usage())
		return
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		fmt.Fprintf(os.Stderr, "ddbharness: unknown command %q\n\n%s", name, usage())
		os.Exit(exitBadInput)
	}
	c := commands[i]
	code, msg := exitCode(ctx, c.run(ctx, newFlags(c.name, c.args, c.about), args))
	if msg != "" {
		fmt.Fprintf(os.Stderr, "ddbharness: %s\n", msg)
	}
	os.Exit(code)
}
