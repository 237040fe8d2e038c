package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/gate"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// runBench runs the named scenarios (each design's default when none is
// named), each on a fresh embedded DynamoDB Local or on the given endpoint,
// and writes a report per run. Every flag and name is checked before
// anything starts. Ctrl-C stops the run in progress, still writes its
// report, and runs no further scenario; so does a failing test bed (the
// embedded DynamoDB Local exiting, calls failing for infrastructure
// reasons), whose report says so.
func runBench(ctx context.Context, fs *flag.FlagSet, args []string) error {
	p, err := planBench(ctx, fs, args)
	if err != nil || p == nil {
		return err
	}
	defer p.sayWhere()
	for i := range p.runs {
		abort, err := p.runScenario(ctx, i)
		if err != nil {
			return err
		}
		if abort && i < len(p.runs)-1 {
			fmt.Println("a threshold marked abort was breached: no further scenario runs")
			break
		}
	}
	return p.finish()
}

// planBench reads bench's flags and names into fs and checks them all,
// before anything starts; it returns nil with --list, which lists the
// scenarios instead.
func planBench(ctx context.Context, fs *flag.FlagSet, args []string) (*benchPlan, error) {
	f := addBenchFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return f.plan(ctx, fs)
}

// benchFlags are bench's flags, read by plan once parsed.
type benchFlags struct {
	list                       *bool
	target                     *float64
	duration, shardWait        *time.Duration
	root                       *string
	limits, conflicts          *onOff
	shard, run, start          *string
	limitsScale, rate, maxCost *float64
	placementSeed              *uint64
	pool                       *int
	keep                       *bool
	gate                       *gateFlags
}

// addBenchFlags adds bench's flags to fs; their help is the reference the
// docs repeat (docs/bench.md).
func addBenchFlags(fs *flag.FlagSet) *benchFlags {
	return &benchFlags{
		list:          fs.Bool("list", false, "list the scenarios and exit"),
		target:        fs.Float64("target-rate", 0, "forecast throttling at this many requests per second of the mix (0: no forecast)"),
		duration:      fs.Duration("duration", 0, "measure each scenario this long instead of its own duration (above 0, like 20s or 2m)"),
		root:          fs.String("out", "reports", "folder the reports go in"),
		limits:        limitsFlag(fs, true, "throttle as real DynamoDB would, partition by partition", "measure without limits"),
		limitsScale:   fs.Float64("limits-scale", 1, "multiply every DynamoDB limit by this (0.01: a partition serves 30 RCU/s and 10 WCU/s), so throttling shows at rates this machine drives"),
		conflicts:     conflictsFlag(fs, "with the limits, refuse writes of an item another request in flight holds, as DynamoDB's transaction conflicts do", "let them through, as DynamoDB Local does"),
		placementSeed: fs.Uint64("placement-seed", 0, "place partition key values on partitions with this seed: where AWS places a key is not public, and each seed is another draw (0: the default one)"),
		pool:          fs.Int("pool", 0, "seed this many entities instead of each scenario's own pool, and draw its keys from them (0: the scenario's; fewer seed sooner, for a quick run: every shard of a run takes the same)"),
		rate:          fs.Float64("rate", 0, "pace the mix at this many requests per second, constant, instead of the scenario's pacer (0: the scenario's)"),
		shard:         fs.String("shard", "", "run shard I of N of one scenario (I/N, like 2/4): every N-th call of the schedule, in a table shared by all shards (needs --run and a shared endpoint)"),
		run:           fs.String("run", "", "name of a sharded run, the same on every shard: the shared table is ddbh-<design>-<run>"),
		start:         fs.String("start", "", "when every shard begins measuring, in RFC 3339 (2026-11-23T21:30:00Z); empty: as soon as each is ready"),
		shardWait:     fs.Duration("shard-wait", 0, "how long a shard other than 1 waits for shard 1 to create and seed the table before it exits 3 (0: until the run's measured window ends with --start, 10m without)"),
		keep:          fs.Bool("keep-table", false, "leave the run's table in place for inspection (ddbharness tables -delete removes it)"),
		maxCost:       fs.Float64("max-cost", defaultMaxCost(), "on real DynamoDB, refuse a run whose estimated cost is above this many US dollars (MAX_COST)"),
		gate:          addGateFlags(fs),
	}
}

// benchPlan is a bench run with every flag and name checked: the
// scenarios with the command line's overrides applied, each one's
// thresholds, the limits, how the run is spread, and the baseline it
// writes or checks. written collects the report folders as they are
// written, for the last line.
type benchPlan struct {
	runs     []workload.Scenario
	gates    [][]threshold.Threshold
	limits   bench.Limits
	spread   scale
	baseline *gate.Baseline
	gate     *gateFlags
	target   float64
	root     string

	written, breached, regressed []string
}

// plan checks the parsed flags and the scenario names before anything
// starts, flags first (they are cheaper to fix), and returns the run; nil
// with --list, which lists the scenarios instead.
func (f *benchFlags) plan(ctx context.Context, fs *flag.FlagSet) (*benchPlan, error) {
	limits, pacer, err := f.check(fs)
	if err != nil {
		return nil, err
	}
	if *f.list {
		return nil, listScenarios(os.Stdout)
	}
	p := &benchPlan{limits: limits, gate: f.gate, target: *f.target, root: *f.root}
	if p.runs, err = pickScenarios(fs.Args()); err != nil {
		return nil, err
	}
	if p.gates, err = f.gate.thresholds(p.runs); err != nil {
		return nil, err
	}
	if p.baseline, err = f.gate.baselineMode(ctx, limits); err != nil {
		return nil, err
	}
	if err := writableFolder(*f.root); err != nil {
		return nil, err
	}
	if p.spread, err = scalePlan(fs, *f.shard, *f.run, *f.start, *f.keep, *f.maxCost, len(p.runs)); err != nil {
		return nil, err
	}
	if *f.shardWait < 0 || *f.shardWait > maxStartAhead {
		return nil, badInputf("bench: --shard-wait=%s (SHARD_WAIT): want a duration from 0 (the default: the run's window) to 24h", *f.shardWait)
	}
	p.spread.shard.Wait = *f.shardWait
	p.spread.baseline = p.baseline != nil
	for i := range p.runs {
		if err := f.override(&p.runs[i], pacer, p.spread.shard); err != nil {
			return nil, err
		}
	}
	return p, p.gate.baselineHolds(p.baseline, p.runs)
}

// check reads the flags that need no scenario: their ranges, the limits
// and the pacer --rate asks for.
func (f *benchFlags) check(fs *flag.FlagSet) (bench.Limits, *vegeta.ConstantPacer, error) {
	if err := checkBenchFlags(fs, *f.target, *f.duration, *f.root); err != nil {
		return bench.Limits{}, nil, err
	}
	if *f.pool < 0 || *f.pool > maxPool {
		return bench.Limits{}, nil, badInputf("bench: --pool=%d (POOL): want a number of entities from 1 to %d, or 0 (the default) for each scenario's own", *f.pool, maxPool)
	}
	limits, err := benchLimits("bench", f.limits.on, *f.limitsScale)
	if err != nil {
		return limits, nil, err
	}
	limits.PlacementSeed = *f.placementSeed
	limits.NoConflicts = !f.conflicts.on
	pacer, err := ratePacer(*f.rate)
	return limits, pacer, err
}

// override applies --duration, --rate and --pool to one scenario, and
// refuses it when its pace then makes no call in its window.
func (f *benchFlags) override(sc *workload.Scenario, pacer *vegeta.ConstantPacer, shard engine.ShardSpec) error {
	if *f.duration > 0 {
		sc.Duration = *f.duration
	}
	if pacer != nil {
		sc.Pacer = *pacer
	}
	if *f.pool > 0 {
		sc.Pool = *f.pool
	}
	return makesCalls(*sc, shard)
}

// runScenario runs the plan's i-th scenario, again on a breached latency
// threshold when --retry-thresholds asks, prints its thresholds and
// checks or records its baseline figures. abort says a threshold marked
// abort was breached, which runs no further scenario.
func (p *benchPlan) runScenario(ctx context.Context, i int) (abort bool, err error) {
	sc, ts := p.runs[i], p.gates[i]
	// An abort threshold on a figure the run measures as it goes stops
	// it at once; a sharded run's window cannot end early.
	stop := gate.Live(ts)
	if p.spread.shard.Sharded() {
		stop = nil
	}
	out, err := p.runOnce(ctx, sc, func(o bench.Outcome) []threshold.Result { return gate.Evaluate(o, ts) }, stop)
	for retry := *p.gate.retry; err == nil && retry > 0 && latencyBreached(ts, out.Thresholds); retry-- {
		printResults(out.Thresholds)
		fmt.Printf("%s: a latency threshold was breached: running the scenario again (--retry-thresholds); the other figures keep this run's\n", sc.Name)
		out, err = p.runOnce(ctx, sc, rerunEval(ts, out.Thresholds), stop)
	}
	if err != nil {
		return false, err
	}
	bad, abort := printResults(out.Thresholds)
	if out.Stopped != "" {
		fmt.Printf("%s: stopped at %s: %s\n", sc.Name, out.Duration.Round(time.Millisecond), out.Stopped)
		bad, abort = true, true
	}
	if bad {
		p.breached = append(p.breached, sc.Name)
	}
	return abort, p.baselineFigures(sc.Name, out)
}

// runOnce runs sc once and says where its report went; a test bed that
// failed, an error or Ctrl-C ends the whole bench, each in its own words
// and exit code.
func (p *benchPlan) runOnce(ctx context.Context, sc workload.Scenario, eval func(bench.Outcome) []threshold.Result, stop func(engine.Outcome) string) (bench.Outcome, error) {
	dir, out, err := benchOne(ctx, sc, p.target, p.root, p.limits, p.spread, eval, stop)
	if dir != "" {
		p.written = append(p.written, dir)
		fmt.Printf("%s: %s\n  %s\n", sc.Name, dir, report.Headline(out))
	}
	switch {
	case out.Failure != nil:
		fmt.Println("the test bed failed: the report says how and when; no further scenario runs")
		return out, testBedFailed(errors.Join(fmt.Errorf("bench %s: %s (report: %s)", sc.Name, report.FailureReason(out.Failure), dir), err))
	case err != nil:
		return out, err
	case out.Interrupted:
		fmt.Println("interrupted: the report holds what ran; no further scenario runs")
		return out, errInterrupted
	}
	return out, nil
}

// baselineFigures checks scenario name's outcome against the baseline
// read (--check-baseline), or adds its figures to the one being written
// (--write-baseline).
func (p *benchPlan) baselineFigures(name string, out bench.Outcome) error {
	switch {
	case p.baseline == nil:
	case *p.gate.checkBaseline != "":
		worse, err := checkBaseline(*p.baseline, out)
		if err != nil {
			return err
		}
		if worse {
			p.regressed = append(p.regressed, name)
		}
	default:
		p.baseline.Add(out)
	}
	return nil
}

// finish writes the baseline --write-baseline asked for, and exits 99
// when a threshold was breached or a figure regressed.
func (p *benchPlan) finish() error {
	if p.baseline != nil && *p.gate.writeBaseline != "" {
		if err := gate.WriteBaseline(*p.gate.writeBaseline, *p.baseline); err != nil {
			return err
		}
		fmt.Printf("\nbaseline of %d scenario(s) written to %s\n", len(p.baseline.Scenarios), *p.gate.writeBaseline)
	}
	if len(p.breached)+len(p.regressed) > 0 {
		return breachedErr(p.breached, p.regressed)
	}
	return nil
}

// sayWhere ends the output, however the run ended, with where its reports
// went: the last lines a user reads.
func (p *benchPlan) sayWhere() {
	if n := len(p.written); n > 0 {
		fmt.Printf("\n%d report(s) under %s; the newest is %s/latest (also named in %s/LATEST)\n", n, p.root, p.root, p.root)
	}
}

// makesCalls refuses a run whose pace gives it no call of its own in the
// measured window (a shard makes every N-th): it would measure nothing.
func makesCalls(sc workload.Scenario, shard engine.ShardSpec) error {
	if engine.MakesCalls(sc.Pacer, sc.Duration, shard) {
		return nil
	}
	each := ""
	if shard.N > 1 {
		each = fmt.Sprintf(" for shard %d of %d", shard.I, shard.N)
	}
	return badInputf("bench: %s: %s for %s makes no call%s in the measured window (the first is due one interval in): nothing would be measured (raise RATE or DURATION)",
		sc.Name, sc.Pacer, sc.Duration, each)
}

// maxBenchDuration bounds --duration: a run's memory does not grow with
// its calls (they go to results.bin), but its capacity ledger and plot
// keep a little per second and per call.
const maxBenchDuration = 24 * time.Hour

// maxPool bounds --pool: a run seeds every entity before it measures, so a
// pool a typing slip made huge would seed for hours.
const maxPool = 10_000_000

// checkBenchFlags refuses values out of range before anything starts.
func checkBenchFlags(fs *flag.FlagSet, target float64, duration time.Duration, root string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if math.IsNaN(target) || math.IsInf(target, 0) || target < 0 {
		return badInputf("bench: --target-rate=%v: want a finite number of requests per second, 0 or more (0, the default, forecasts nothing)", target)
	}
	if set["duration"] && (duration <= 0 || duration > maxBenchDuration) {
		return badInputf("bench: --duration=%s: want a duration above 0 and at most 24h, like 20s or 2m (leave it out to run each scenario's own)", duration)
	}
	if strings.TrimSpace(root) == "" {
		return badInputf("bench: --out is empty: name the folder the reports go in (default reports)")
	}
	return nil
}

// writableFolder refuses, before anything starts, a report folder that is
// a file or that this process cannot write in; one that does not exist yet
// is made.
func writableFolder(root string) error {
	if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
		return badInputf("bench: --out=%s is a file, not a folder: name a folder the reports go in (default reports)", root)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return badInputf("bench: --out=%s: cannot make the folder (%v): name a folder this user can write in", root, errors.Unwrap(err))
	}
	f, err := os.CreateTemp(root, ".writable-*")
	if err != nil {
		return badInputf("bench: --out=%s: cannot write in it (%v): name a folder this user can write in", root, errors.Unwrap(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// maxRate bounds --rate: far above what one machine drives (a few
// thousand calls a second on two cores), and within what the pacer can
// space (a call a nanosecond).
const maxRate = 1_000_000

// ratePacer is the constant pacer --rate asks for, nil for 0 (each
// scenario's own). A rate with a fraction is paced exactly: 2.5 is 5 calls
// every 2 seconds.
func ratePacer(rate float64) (*vegeta.ConstantPacer, error) {
	switch {
	case rate == 0:
		return nil, nil
	case math.IsNaN(rate) || math.IsInf(rate, 0) || rate < 1 || rate > maxRate:
		return nil, badInputf("bench: --rate=%v (RATE): want requests per second from 1 to %d (a fraction is paced exactly, 2.5 as 5 calls every 2 s), or 0 (the default) to keep each scenario's pacer", rate, maxRate)
	}
	const per = 1000 // thousandths of a request per second
	freq := int(math.Round(rate * per))
	g := gcd(freq, per)
	return &vegeta.ConstantPacer{Freq: freq / g, Per: time.Duration(per/g) * time.Second}, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// benchOne runs one scenario on its own DynamoDB Local (a fresh JVM per
// scenario, so one design's load never leaves the next a tired server), or
// on the endpoint the environment names, real DynamoDB included. The run
// watches an embedded JVM: if it exits, the run stops with Failure set,
// and the report is still written, marked failed. Off this machine it
// first prints what the run will cost and refuses it above the plan's
// limit, before anything is created.
func benchOne(ctx context.Context, sc workload.Scenario, target float64, root string, lim bench.Limits, plan scale, eval func(bench.Outcome) []threshold.Result, stop func(engine.Outcome) string) (string, bench.Outcome, error) {
	srv, err := startDynamo(ctx, testbed.AWS())
	if err != nil {
		return "", bench.Outcome{}, err
	}
	defer srv.Stop()
	if plan.shard.Sharded() && srv.Embedded() {
		return "", bench.Outcome{}, badInputf("bench: --shard=%d/%d: the shards share one table, which an embedded DynamoDB Local of each process is not: set %s to a DynamoDB all shards reach (ddbharness local prints one), or %s=1 for real DynamoDB",
			plan.shard.I, plan.shard.N, testbed.EnvEndpoint, testbed.EnvAllowRemote)
	}
	lim, err = remoteLimits(lim, srv, plan)
	if err != nil {
		return "", bench.Outcome{}, err
	}
	fmt.Fprintf(os.Stderr, "%s: DynamoDB at %s; %s\n", sc.Name, srv.Where(), sc.About)
	if srv.Remote() {
		if err := costGate(ctx, sc, lim, plan); err != nil {
			return "", bench.Outcome{}, err
		}
	}
	fmt.Fprintf(os.Stderr, "%s: %s\n", sc.Name, report.LimitsText(lim))
	opts := []engine.Option{engine.Progress(os.Stderr), engine.TargetRate(target), engine.Watch(srv.Done(), srv.Exit), engine.Shard(plan.shard)}
	if plan.keep {
		opts = append(opts, engine.KeepTable())
	}
	if stop != nil {
		opts = append(opts, engine.StopWhen(stop))
	}
	if plan.baseline {
		opts = append(opts, baselineRun...)
	}
	// The run's folder comes first: its calls go to results.bin as they end.
	dir, err := report.NewFolder(root, bench.Outcome{Outcome: engine.Outcome{Scenario: sc.Name, Design: sc.Design.Name, Shard: plan.shard}})
	if err != nil {
		return "", bench.Outcome{}, err
	}
	opts = append(opts, engine.ResultsTo(filepath.Join(dir, report.ResultsFile)))
	out, err := bench.RunLimited(ctx, testbed.Client(srv.Endpoint), sc, lim, opts...)
	if err != nil && out.Failure == nil {
		if out.Started.IsZero() { // nothing measured: no report, no folder
			_ = os.Remove(filepath.Join(dir, report.ResultsFile))
			_ = os.Remove(dir)
		}
		if exit := srv.Exit(); exit != nil {
			return "", out, testBedFailed(fmt.Errorf("%w\n%v", err, exit))
		}
		return "", out, err
	}
	if srv.Remote() {
		out.Service = serviceName(srv)
	}
	out.Thresholds = eval(out)
	return dir, out, errors.Join(err, report.WriteTo(dir, out))
}

// serviceName names a remote endpoint for the report.
func serviceName(srv *testbed.Server) string {
	if testbed.IsAWS(srv.Endpoint) {
		return srv.Where()
	}
	return "the DynamoDB at " + srv.Where()
}

// limitsFlag adds --limits to fs, one switch in every command, on or off
// when left out; the usage says what each does.
func limitsFlag(fs *flag.FlagSet, on bool, whenOn, whenOff string) *onOff {
	return onOffFlag(fs, "limits", "LIMITS", on, "on (or --limits alone): "+whenOn+"; off: "+whenOff+" (LIMITS)")
}

// benchLimits reads --limits (on) and --limits-scale of command cmd.
func benchLimits(cmd string, on bool, scale float64) (bench.Limits, error) {
	lim := bench.Limits{Off: !on}
	if math.IsNaN(scale) || math.IsInf(scale, 0) || scale <= 0 || scale > 1000 {
		return lim, badInputf("%s: --limits-scale=%v (LIMITS_SCALE): want a factor above 0 and at most 1000, like 0.01 (1, the default, is DynamoDB's own limits)", cmd, scale)
	}
	lim.Scale = scale
	return lim, nil
}

// conflictsFlag adds --conflicts to fs, a switch as --limits is, on when
// left out; the usage says what each does.
func conflictsFlag(fs *flag.FlagSet, whenOn, whenOff string) *onOff {
	return onOffFlag(fs, "conflicts", "CONFLICTS", true, "on (the default, or --conflicts alone): "+whenOn+"; off: "+whenOff+" (CONFLICTS)")
}

// pickScenarios turns names into scenarios: a scenario name
// ("shop/constant-partitions"), a design name (its default), "all", or
// a spec design's scenario named in full ("leaderboard/launch-day").
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
		if sc, ok := findSpecScenario(n); ok {
			out = append(out, sc)
			continue
		}
		return nil, badInputf("bench: no scenario or design %q: pick one of %s, a design name, or all (see ddbharness bench -list)", n, scenarioNames())
	}
	return out, nil
}

// scenarioNames lists every scenario's name, for a refusal to name them.
func scenarioNames() string {
	var known []string
	for _, sc := range scenarios.All {
		known = append(known, sc.Name)
	}
	return strings.Join(known, ", ")
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
