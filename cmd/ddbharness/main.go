// Command ddbharness verifies and measures DynamoDB single-table designs.
//
//	ddbharness verify [ginkgo flags] [DESIGN ...]   prove every access pattern (of the designs named) on DynamoDB Local
//	ddbharness bench [SCENARIO ...]    load scenarios, capacity model and reports
//	ddbharness coverage REPORT.json    the coverage gate alone, on a Ginkgo JSON report
//	ddbharness catalog                 list every design's access patterns
//	ddbharness local                   run DynamoDB Local in the foreground
//	ddbharness new-design NAME         scaffold a design, its fixtures and scenario
//	ddbharness import-model FILE       a design from a NoSQL Workbench model
//	ddbharness export-model DESIGN     a design as a NoSQL Workbench model
//	ddbharness lint [DESIGN ...]       check designs against DynamoDB's limits
//	ddbharness tables [-delete]        list or delete the harness's leftover tables
//	ddbharness report merge DIR...     merge the shards of a run into one report
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: ddbharness <command> [arguments]

commands:
  verify [ginkgo flags] [DESIGN ...]
                          prove every access pattern of every design (or of those named) on DynamoDB Local
  bench [flags] [SCENARIO|DESIGN|all ...]
                          run load scenarios (default: each design's default) and write reports
  coverage REPORT.json    check a Ginkgo JSON report against the catalogs
  catalog                 list every design's access patterns
  local                   run DynamoDB Local in the foreground until Ctrl-C
  new-design [-entity E] NAME
                          scaffold designs/NAME, its fixtures and scenario, and wire them in
  import-model [-name NAME] MODEL.json
                          a design (package, specs on its sample data, fixtures, scenario) from a NoSQL Workbench model
  export-model [-out FILE] DESIGN
                          a design as a NoSQL Workbench model, its fixtures as sample items
  lint [-json] [DESIGN ...]
                          check designs against DynamoDB's limits on seeded fixtures (no DynamoDB)
  tables [-delete] [-older-than D]
                          list the ddbh-* tables left on AWS_ENDPOINT_URL_DYNAMODB (a killed run's), or delete them
  report merge [--out DIR] SHARD_DIR...
                          merge the report folders of every shard of one run (bench --shard) into one report

DynamoDB endpoint: AWS_ENDPOINT_URL_DYNAMODB if set, else an embedded DynamoDB Local;
bench runs on real DynamoDB with DDBHARNESS_ALLOW_REMOTE=1 and no endpoint set.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(exitBadInput)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "verify":
		err = runVerify(ctx, args)
	case "bench":
		err = runBench(ctx, args)
	case "coverage":
		err = coverage(args)
	case "catalog":
		err = noArgs(cmd, args, func() error { return catalog(os.Stdout) })
	case "local":
		err = noArgs(cmd, args, func() error { return local(ctx) })
	case "new-design":
		err = newDesign(args)
	case "lint":
		err = runLint(ctx, args)
	case "import-model":
		err = importModel(ctx, args)
	case "export-model":
		err = exportModel(ctx, args)
	case "tables":
		err = runTables(ctx, args)
	case "report":
		err = runReport(args)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "ddbharness: unknown command %q\n\n%s", cmd, usage)
		os.Exit(exitBadInput)
	}
	code, msg := exitCode(ctx, err)
	if msg != "" {
		fmt.Fprintf(os.Stderr, "ddbharness: %s\n", msg)
	}
	os.Exit(code)
}
