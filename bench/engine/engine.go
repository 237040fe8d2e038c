// Package engine paces a load scenario against a design's access patterns
// and measures every call's latency and outcome as a vegeta Result: an
// open-loop pacer (vegeta's), a bounded pool of workers, per-second
// progress, and results in order of intended time. What a call costs on
// DynamoDB is not its business: a Meter (bench's instrumented client and
// capacity ledger) wraps the client the driver calls, and is told when the
// measured phase starts and stops. It never imports a concrete design:
// scenarios bring a workload.Driver that calls the design's functions.
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

// Meter is the one seam between the engine and what measures a run's calls
// beyond their latency. Client wraps the table's client for the driver
// (seeding and warm-up included); Start is called when the measured phase
// begins and Stop when its last call has ended, before the table is
// deleted.
type Meter interface {
	Client(db designs.DB) designs.DB
	Start()
	Stop(ctx context.Context)
}

// Outcome is what a run measured: every call as a vegeta Result and
// vegeta's metrics for the whole mix and per pattern. An interrupted run
// returns what it measured until then.
type Outcome struct {
	Scenario    string
	About       string
	Design      string
	Table       string
	Pacer       string // the pacer, as vegeta prints it
	Pool        int
	Workers     int
	Seed        int64
	Duration    time.Duration // asked for
	Warmup      time.Duration
	SeedTime    time.Duration // filling the table
	Started     time.Time     // when measuring began
	Elapsed     time.Duration // how long measuring took
	Interrupted bool
	// Failure, when set, says the test bed failed and when: the run is
	// not a measurement of the design past Failure.At.
	Failure *Failure
	// TargetRate is the rate the report forecasts at (option TargetRate);
	// the engine only carries it.
	TargetRate float64
	// Results holds every measured call in order of intended time; Seq
	// counts per pattern, as vegeta's plot expects of each attack.
	Results  vegeta.Results
	Total    vegeta.Metrics
	Patterns []PatternMetrics
	// Unsent counts calls still waiting when the run ended.
	Unsent int
}

// PatternMetrics is one step of the mix with vegeta's metrics of its calls.
type PatternMetrics struct {
	designs.Pattern
	Weight  int
	Keys    string // the key distribution
	Metrics vegeta.Metrics
}

// Run runs scenario sc against db: it creates the design's table, seeds it
// through the scenario's driver (on the Meter's client, when one is set),
// warms up, then paces the mix open-loop for sc.Duration, and deletes the
// table. Cancelling ctx (Ctrl-C) stops the run
// cleanly: Run returns what it measured, with Interrupted set. Against an
// endpoint off this machine it refuses to run unless the user opted in
// (ddblocal.EnvAllowRemote), and then touches only the table it created.
func Run(ctx context.Context, db DynamoDB, sc workload.Scenario, opts ...Option) (Outcome, error) {
	cfg := newConfig(opts)
	if err := sc.Validate(); err != nil {
		return Outcome{}, err
	}
	if cfg.workers < 1 {
		return Outcome{}, fmt.Errorf("bench %s: %w: %d workers", sc.Name, designs.ErrInvalidInput, cfg.workers)
	}
	if err := checkEndpoint(db); err != nil {
		return Outcome{}, err
	}
	table := designs.TableName(sc.Design.Name, "bench")
	if err := designs.CreateTable(ctx, db, sc.Design.Schema, table); err != nil {
		return Outcome{}, fmt.Errorf("bench %s: %w", sc.Name, err)
	}
	defer func() {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := designs.DeleteTable(cleanup, db, table); err != nil {
			fmt.Fprintf(cfg.progress, "bench %s: %v\n", sc.Name, err)
		}
	}()

	var client designs.DB = db
	if cfg.meter != nil {
		client = cfg.meter.Client(db)
	}
	out := Outcome{TargetRate: cfg.targetRate, Scenario: sc.Name, About: sc.About, Design: sc.Design.Name, Table: table, Pacer: fmt.Sprint(sc.Pacer),
		Pool: sc.Pool, Workers: cfg.workers, Seed: cfg.seed, Duration: sc.Duration, Warmup: cfg.warmup}
	driver := sc.Driver(client, table, cfg.seed)
	seeded := time.Now()
	if err := driver.Seed(ctx, sc.Pool, seedProgress(cfg.progress, sc.Name, seeded)); err != nil {
		if ctx.Err() != nil {
			out.Interrupted = true
			return out, nil
		}
		return out, fmt.Errorf("bench %s: seed: %w", sc.Name, err)
	}
	out.SeedTime = time.Since(seeded)

	a := newAttack(sc, driver, cfg)
	if cfg.warmup > 0 {
		fmt.Fprintf(cfg.progress, "%s: warming up for %s\n", sc.Name, cfg.warmup)
		a.run(ctx, cfg.warmup, nil)
	}
	if ctx.Err() != nil {
		out.Interrupted = true
		return out, nil
	}

	if cfg.meter != nil {
		cfg.meter.Start()
	}
	c := newCollector(sc, cfg.progress)
	out.Started = time.Now().UTC()
	unsent := a.run(ctx, sc.Duration, c)
	if cfg.meter != nil {
		cfg.meter.Stop(ctx)
	}
	out.Elapsed = time.Since(out.Started)
	out.Interrupted = ctx.Err() != nil
	out.Unsent = unsent
	c.finish(&out, sc)
	return out, nil
}
