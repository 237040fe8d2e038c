package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/internal/verify"
)

// runVerify runs ddbharness verify: args are ginkgo's run flags, then
// design names; the command's own flag set only gives -h its first lines.
// The flags are checked here and the names by verify.Run, both before
// anything starts; verify.Run does the rest.
func runVerify(ctx context.Context, fs *flag.FlagSet, args []string) error {
	args, own, err := ownFlags(args)
	if err != nil {
		return err
	}
	filter, names, err := checkGinkgoFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		fmt.Fprint(fs.Output(), verifyHelp)
	}
	if err != nil {
		return err
	}
	return verify.Run(ctx, verify.Options{
		GinkgoArgs:  ginkgoFlags(args, names),
		Filter:      filter,
		Designs:     names,
		Hostile:     own.hostile,
		Race:        own.race,
		StartDynamo: startDynamo,
	})
}

// verifyFlags are verify's own switches among ginkgo's flags.
type verifyFlags struct{ hostile, race bool }

// ownFlags takes verify's own --hostile and --race (or -hostile, or
// --race=false...) out of args, which are otherwise ginkgo's flags, and
// says which are on. ginkgo has a --race of its own, which builds the
// suites itself; verify's builds them into its cache as ever, with the
// detector. A value that is no boolean is bad input.
func ownFlags(args []string) ([]string, verifyFlags, error) {
	var rest []string
	var own verifyFlags
	for i, a := range args {
		if a == "--" {
			return append(rest, args[i:]...), own, nil
		}
		name, value, valued := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		var to *bool
		switch {
		case !strings.HasPrefix(a, "-"):
		case name == "hostile":
			to = &own.hostile
		case name == "race":
			to = &own.race
		}
		if to == nil {
			rest = append(rest, a)
			continue
		}
		on := true
		if valued {
			var err error
			if on, err = strconv.ParseBool(value); err != nil {
				return nil, own, badInputf("verify: %s: want --%s, --%s=true or --%s=false", a, name, name, name)
			}
		}
		*to = on
	}
	return rest, own, nil
}

// checkGinkgoFlags parses args as ginkgo run flags, so that a flag ginkgo
// would refuse, or a label filter it cannot parse, is refused before
// anything starts; it returns the label filter and the words after the
// flags (design names, which verify.Run checks).
func checkGinkgoFlags(args []string) (filter string, names []string, err error) {
	suite, reporter, cli, goFlags := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig(), types.NewDefaultCLIConfig(), types.NewDefaultGoFlagsConfig()
	fs, err := types.BuildRunCommandFlagSet(&suite, &reporter, &cli, &goFlags)
	if err != nil {
		return "", nil, err
	}
	rest, err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return "", nil, err
	}
	if err != nil {
		return "", nil, badInputf("verify: %v: verify takes ginkgo's run flags (go tool ginkgo help run lists them), e.g. --label-filter=%q", err, "design:shop && AP-03")
	}
	if _, err := types.ParseLabelFilter(suite.LabelFilter); err != nil {
		return "", nil, badInputf("verify: --label-filter=%q: %s; labels join with &&, || and ! (make catalog lists them), e.g. --label-filter=%q",
			suite.LabelFilter, plain(err), "design:shop && AP-03")
	}
	for _, f := range [][]string{suite.FocusFiles, suite.SkipFiles} {
		if _, err := types.ParseFileFilters(f); err != nil {
			return "", nil, badInputf("verify: %s", plain(err))
		}
	}
	if cli.OutputDir != "" || reporter.JSONReport != "" || reporter.JUnitReport != "" || reporter.TeamcityReport != "" {
		return "", nil, badInputf("verify: --output-dir and --*-report are verify's own: it writes %s/junit.xml and report.json", verify.ReportDir)
	}
	return suite.LabelFilter, rest, nil
}

// ginkgoFlags are the flags of args, without the design names after them
// (or the "--" that ended the flags): ginkgo would take either for
// packages.
func ginkgoFlags(args, names []string) []string {
	flags := args[:len(args)-len(names)]
	if len(flags) > 0 && flags[len(flags)-1] == "--" {
		flags = flags[:len(flags)-1]
	}
	return slices.Clone(flags)
}

// verifyHelp follows the usage line and about of verify's -h.
const verifyHelp = `From make: make verify [DESIGN='shop ...'] [HOSTILE=1] [RACE=1] [GINKGO_FLAGS='...']

The run gates on catalog coverage. Flags go to ginkgo (go tool ginkgo help
run lists them); a --label-filter narrows the gate to the catalog patterns
it selects:
  ddbharness verify --label-filter='design:shop && AP-03'
Design names narrow the run to those designs: their suites, the scenario
specs labelled with them, their lint and their coverage gate:
  ddbharness verify shop
--hostile (make verify HOSTILE=1) runs each design's pattern specs with
their patterns' calls behind the standard profile of fault rules, printed
before the run (docs/verify.md):
  ddbharness verify --hostile invoicing
--race (make verify RACE=1, as CI runs it) builds every test with Go's
race detector, which needs a C compiler; the suites then take several
times the CPU, so the everyday run leaves it out.
`

// plain is a ginkgo error on one line, without its terminal colours.
func plain(err error) string {
	var ge types.GinkgoError
	if !errors.As(err, &ge) {
		return err.Error()
	}
	// The message repeats the input, then says what is wrong on its last line.
	msg := strings.TrimSpace(formatter.New(formatter.ColorModeNone).F(ge.Message))
	return ge.Heading + ": " + strings.TrimSuffix(msg[strings.LastIndexByte(msg, '\n')+1:], ".")
}

// coverage is the gate alone, for a report from a hand-run ginkgo.
func coverage(ctx context.Context, fs *flag.FlagSet, args []string) error {
	file, err := oneArg(fs, args, "JSON report (from ginkgo --json-report)")
	if err != nil {
		return err
	}
	b, err := userfile.Read(ctx, file, verify.MaxReportBytes)
	if err != nil && ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return badInputf("coverage: read ginkgo report: %v: give the JSON report a ginkgo run wrote (--json-report=FILE)", err)
	}
	reports, err := verify.ParseReports(file, b)
	if err != nil {
		return badInputf("coverage: %v: give the JSON report a ginkgo run wrote (--json-report=FILE)", err)
	}
	cov := verify.Measure(all.Designs, reports)
	if err := cov.WriteText(os.Stdout); err != nil {
		return err
	}
	if gaps := cov.Gaps(); len(gaps) > 0 {
		for _, g := range gaps {
			fmt.Println("gap:", g)
		}
		return fmt.Errorf("%d catalog pattern(s) without passing specs", len(gaps))
	}
	return nil
}
