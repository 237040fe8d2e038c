package engine

import (
	"context"
	"fmt"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// DynamoDB is what Run needs of a client: the calls patterns make and the
// table management around a run. *dynamodb.Client satisfies it.
type DynamoDB interface {
	designs.DB
	designs.Admin
}

// Measurer is the one seam between the engine and what measures a run's calls
// beyond their latency. Client wraps the table's client for the driver
// (seeding and warm-up included); Start is called when the measured phase
// begins and Stop when its last call has ended, before the table is
// deleted. Cut is called once, as soon as the test bed fails, with the
// time from which its calls are not the design's: nothing the Measurer sees
// from then on should count. Call is called as each pattern call begins,
// with its context; the call is made with the context it returns, and end
// is called once it has ended, saying whether the run counted it: a call
// the drain or an interrupt cut short is in none of the run's figures, so
// what it consumed should not count either.
type Measurer interface {
	Client(db designs.DB) designs.DB
	Start()
	Stop(ctx context.Context)
	Cut(at time.Time)
	Call(ctx context.Context) (_ context.Context, end func(counted bool))
}

// Outcome is what a run measured: vegeta's metrics for the whole mix and
// per pattern, the failed calls, and the file every call went to as a
// vegeta Result. An interrupted run returns what it measured until then.
type Outcome struct {
	Scenario   string
	About      string
	Design     string
	Table      string
	Pacer      string // the pacer, as vegeta prints it
	Pool       int
	Workers    int
	RandomSeed int64
	Duration   time.Duration // asked for; the window measured, when MinCalls or StopWhen ended it early
	// Stopped is why StopWhen ended the window early (empty: it did not).
	Stopped     string `json:",omitempty"`
	Warmup      time.Duration
	SeedTime    time.Duration // filling the table
	Started     time.Time     // when measuring began
	Elapsed     time.Duration // how long measuring took
	Interrupted bool
	// Failure, when set, says the test bed failed and when: the run is
	// not a measurement of the design past Failure.At.
	Failure *Failure
	// Saturated, when set, says the test bed fell behind the pace while
	// measuring, first at Saturated.At: latencies from then on are the
	// test bed's as much as the design's.
	Saturated *Saturation
	// TargetRate is the rate the report forecasts at (option TargetRate);
	// the engine only carries it.
	TargetRate float64
	// ResultsFile is where each measured call was written as it ended
	// (option ResultsTo; empty without it): read it with ReadResults.
	// ResultsErr, when set, is why it lacks calls.
	ResultsFile string `json:"-"`
	ResultsErr  error  `json:"-"`
	Total       vegeta.Metrics
	Patterns    []PatternMetrics
	Errors      []ErrorCount // the failed calls by pattern, status and error
	Refusals    []ErrorCount `json:",omitempty"` // the refused calls by pattern and class
	// Unsent counts calls still waiting when the run ended; CutOff, calls
	// in flight when the drain after it ended, cut short and not recorded
	// (nor charged: Measurer.Call).
	Unsent int
	CutOff int `json:",omitempty"`
	// Shard is the part of a run split over several machines this one
	// made; LateStart, how long after the shards' common start it began
	// measuring. KeptTable is set when the table was left in place.
	Shard     ShardSpec
	LateStart time.Duration
	KeptTable bool
}

// PatternMetrics is one step of the mix with vegeta's metrics of its calls.
type PatternMetrics struct {
	designs.Pattern
	Weight  int
	Keys    string // the key distribution
	Metrics vegeta.Metrics
}

// Run runs scenario sc against db: it creates the design's table, seeds it
// through the scenario's driver (on the Measurer's client, when one is set),
// warms up, then paces the mix open-loop for sc.Duration, and deletes the
// table. Cancelling ctx (Ctrl-C) stops the run
// cleanly: Run returns what it measured, with Interrupted set. When the test
// bed fails (a watched service exits, see Watch, or calls fail for
// infrastructure reasons beyond InfraFailureShare) at any phase, the run
// stops at once: Run returns what it measured until then, with Failure set,
// and no error. Against an
// endpoint off this machine it refuses to run unless the user opted in
// (testbed.EnvAllowRemote), and then touches only the table it created.
func Run(ctx context.Context, db DynamoDB, sc workload.Scenario, opts ...Option) (Outcome, error) {
	cfg := newConfig(opts)
	if err := sc.Validate(); err != nil {
		return Outcome{}, err
	}
	if cfg.workers < 1 {
		return Outcome{}, fmt.Errorf("bench %s: %w: %d workers", sc.Name, designs.ErrInvalidInput, cfg.workers)
	}
	if err := cfg.shard.Check(); err != nil {
		return Outcome{}, fmt.Errorf("bench %s: %w", sc.Name, err)
	}
	if cfg.stopWhen != nil && cfg.shard.Sharded() {
		return Outcome{}, fmt.Errorf("bench %s: %w: a sharded run (shard %d/%d) cannot stop its window early: its shards' windows end together",
			sc.Name, designs.ErrInvalidInput, cfg.shard.I, cfg.shard.N)
	}
	if cfg.minCalls < 0 || cfg.minCalls > 0 && cfg.shard.Sharded() {
		return Outcome{}, fmt.Errorf("bench %s: %w: at least %d calls of each pattern on shard %d/%d: want 0 or more, and 0 for a sharded run",
			sc.Name, designs.ErrInvalidInput, cfg.minCalls, cfg.shard.I, cfg.shard.N)
	}
	remote, err := checkEndpoint(db)
	if err != nil {
		return Outcome{}, err
	}
	cfg.remote = remote
	// run ends with ctx, or as soon as the test bed fails.
	run, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	tb := newBed(cfg, stop)
	tb.watching(run)

	t := newRunTable(db, sc, cfg, tb)
	out := Outcome{TargetRate: cfg.targetRate, Scenario: sc.Name, About: sc.About, Design: sc.Design.Name, Table: t.name, Pacer: fmt.Sprint(sc.Pacer),
		Pool: sc.Pool, Workers: cfg.workers, RandomSeed: cfg.seed, Duration: sc.Duration, Warmup: cfg.warmup, Shard: cfg.shard, KeptTable: cfg.keep}
	// ended closes out for a run that stopped before measuring.
	ended := func(err error, what string) (Outcome, error) {
		switch {
		case tb.ended(err):
			tb.finish(&out, time.Time{})
			return out, nil
		case ctx.Err() != nil:
			out.Interrupted = true
			return out, nil
		}
		return out, fmt.Errorf("bench %s: %s%w", sc.Name, what, err)
	}
	var results *resultsFile
	if cfg.results != "" {
		if results, err = createResults(cfg.results); err != nil {
			return out, fmt.Errorf("bench %s: %w", sc.Name, err)
		}
		out.ResultsFile = cfg.results
		// Closed on every way out, a panic's included; the way out after
		// measuring closes it itself, to report an error.
		defer results.close()
	}
	defer t.close(ctx)
	if err := t.open(run); err != nil {
		return ended(err, "")
	}
	client := t.client()
	if cfg.measurer != nil {
		client = cfg.measurer.Client(client)
	}
	driver := sc.Driver(client, t.name, cfg.seed)
	tb.enter(PhaseSeed)
	seeded := time.Now()
	if err := driver.Seed(run, sc.Pool, seedProgress(cfg.progress, sc.Name, seeded)); err != nil {
		return ended(err, "seed: ")
	}
	if err := t.seeded(run); err != nil {
		return ended(err, "")
	}
	out.SeedTime = time.Since(seeded)
	keys, err := sc.KeySpace(driver)
	if err != nil {
		return ended(err, "")
	}

	a := newAttack(sc, driver, keys, cfg, tb)
	if cfg.warmup > 0 {
		tb.enter(PhaseWarmup)
		fmt.Fprintf(cfg.progress, "%s: warming up for %s\n", sc.Name, cfg.warmup)
		a.run(run, time.Now(), cfg.warmup, nil)
	}
	if run.Err() != nil {
		return ended(run.Err(), "")
	}

	out.LateStart = awaitStart(run, sc.Name, cfg)
	if run.Err() != nil {
		return ended(run.Err(), "")
	}
	tb.enter(PhaseMeasure)
	if cfg.measurer != nil {
		cfg.measurer.Start()
	}
	c := newCollector(sc, cfg.progress, results, cfg.minCalls, cfg.stopWhen)
	began := time.Now()
	out.Started = began.UTC()
	unsent := a.run(run, began, sc.Duration, c)
	if cfg.measurer != nil {
		cfg.measurer.Stop(run)
	}
	out.Elapsed = time.Since(out.Started)
	out.Interrupted = ctx.Err() != nil
	out.Unsent = unsent
	out.CutOff = int(a.cutOff.Load())
	c.finish(&out, sc)
	if !out.Interrupted && out.Total.Requests == 0 && !tb.failed() {
		// A window without a call measured nothing: the run is not complete.
		tb.record(time.Now(), fmt.Sprintf("no call was made in the %s measured window (pacer %s), so nothing was measured", sc.Duration, out.Pacer), "")
	}
	tb.finish(&out, out.Started)
	if results != nil {
		out.ResultsErr = results.close() // before Run returns, for its caller to read
	}
	return out, nil
}
