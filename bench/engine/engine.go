package bench

import (
	"context"
	"fmt"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// DynamoDB is what Run needs of a client: the calls patterns make and the
// table management around a run. *dynamodb.Client satisfies it.
type DynamoDB interface {
	designs.DB
	designs.Admin
}

// Outcome is what a run measured: every call as a vegeta Result, vegeta's
// metrics for the whole mix and per pattern, and the capacity model's
// report. An interrupted run returns what it measured until then.
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
	// Results holds every measured call in order of intended time; Seq
	// counts per pattern, as vegeta's plot expects of each attack.
	Results  vegeta.Results
	Total    vegeta.Metrics
	Patterns []PatternMetrics
	Capacity capacity.Report
	// Approximations counts writes whose after image the client could not
	// compute; Unsent counts calls still waiting when the run ended.
	Approximations int64
	Unsent         int
}

// PatternMetrics is one step of the mix with vegeta's metrics of its calls.
type PatternMetrics struct {
	designs.Pattern
	Weight  int
	Keys    string // the key distribution
	Metrics vegeta.Metrics
}

// Run runs scenario sc against db: it creates the design's table, seeds it
// through the scenario's driver, warms up, then paces the mix open-loop for
// sc.Duration, and deletes the table. Cancelling ctx (Ctrl-C) stops the run
// cleanly: Run returns what it measured, with Interrupted set. Against an
// endpoint off this machine it refuses to run unless the user opted in
// (ddblocal.EnvAllowRemote), and then touches only the table it created.
func Run(ctx context.Context, db DynamoDB, sc Scenario, opts ...Option) (Outcome, error) {
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

	client := NewClient(db, sc.Design.Schema)
	out := Outcome{Scenario: sc.Name, About: sc.About, Design: sc.Design.Name, Table: table, Pacer: fmt.Sprint(sc.Pacer),
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

	ledger := capacity.NewLedger()
	client.Observe(func(o capacity.Observation) { ledger.Observe(sc.Design.Schema, o) })
	c := newCollector(sc, cfg.progress)
	out.Started = time.Now().UTC()
	unsent := a.run(ctx, sc.Duration, c)
	client.Observe(nil)
	out.Elapsed = time.Since(out.Started)
	out.Interrupted = ctx.Err() != nil
	out.Unsent = unsent
	out.Approximations = client.Approximations()
	c.finish(&out, sc)
	out.Capacity = capacity.Model{
		Schema:     sc.Design.Schema,
		Requests:   int64(out.Total.Requests),
		Duration:   min(out.Elapsed, sc.Duration),
		TargetRate: cfg.targetRate,
		TableBytes: tableBytes(client, table),
	}.Analyze(ledger)
	return out, nil
}

// tableBytes is the size of the table as the run left it.
func tableBytes(c *Client, table string) int64 {
	var n int64
	c.Items(table, func(img capacity.Image) { n += int64(capacity.Size(img)) })
	return n
}
