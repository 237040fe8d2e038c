package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/workload"
)

// ShardSpec says which part of a run split over several load machines
// this process makes. Shard I of N sends every N-th call of the schedule
// one machine would make (the I-th of each N), so the shards' calls
// together are exactly that machine's: the same steps, keys and due times,
// at 1/N of the rate each on the same pacer shape. All shards share one
// table, named by Run: shard 1 creates and seeds it, and deletes it after
// the others are done; the others wait for it to be seeded, and replay the
// seed in memory to know its items as shard 1 does.
type ShardSpec struct {
	I, N int    // 1 ≤ I ≤ N
	Run  string // names the shared table: ddbh-<design>-<run>
	// Start is when every shard begins measuring (zero: as soon as ready).
	Start time.Time
	// Wait, when above 0, bounds how long a shard other than 1 waits for
	// shard 1 to create and seed the table, from its own start (else
	// awaitSeeded's bound).
	Wait time.Duration `json:",omitempty"`
}

// Sharded reports whether the run is split at all.
func (s ShardSpec) Sharded() bool { return s.N > 1 }

// leads reports whether this shard creates, seeds and deletes the table.
func (s ShardSpec) leads() bool { return s.I <= 1 }

// String reads "shard 2/4 of run nightly".
func (s ShardSpec) String() string {
	if !s.Sharded() {
		return "one machine"
	}
	return fmt.Sprintf("shard %d/%d of run %s", s.I, s.N, s.Run)
}

// runName is what a run name may hold: it goes into a table name.
var runName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// Check refuses a spec that cannot be run, naming the fix.
func (s ShardSpec) Check() error {
	switch {
	case s.N < 1 || s.I < 1 || s.I > s.N || s.N > MaxShards:
		return fmt.Errorf("shard %d/%d: %w: want I/N with 1 ≤ I ≤ N ≤ %d, like 1/4", s.I, s.N, designs.ErrInvalidInput, MaxShards)
	case s.Run != "" && !runName.MatchString(s.Run):
		return fmt.Errorf("run name %q: %w: want 1 to 40 lower-case letters, digits and dashes, starting with a letter or digit (it names the shared table)", s.Run, designs.ErrInvalidInput)
	case s.Sharded() && s.Run == "":
		return fmt.Errorf("shard %d/%d: %w: a sharded run needs a run name (--run) that every shard is given, so they share one table", s.I, s.N, designs.ErrInvalidInput)
	}
	return nil
}

// MaxShards bounds N: shard 1 waits for each other shard's done signal in
// turn, and a thousand machines are far past what one table's run needs.
const MaxShards = 1000

// Shard runs the part of the run s says (default: the whole run on this
// machine, in a table of its own).
func Shard(s ShardSpec) Option { return func(c *config) { c.shard = s } }

// ShardGrace is how long after the shards' common end (start, duration
// and drain) shard 1 waits for the others' done signals before deleting
// the shared table anyway.
const ShardGrace = 30 * time.Second

// seededName is the table shard 1 creates once the run's table is seeded:
// the signal the other shards wait for. DynamoDB Local has no tags, and an
// item in the run's table would be read by its Scans.
func seededName(table string) string { return table + "-seeded" }

// signalSeeded tells the other shards the table is seeded.
func signalSeeded(ctx context.Context, db DynamoDB, table string) error {
	if err := designs.CreateTable(ctx, db, designs.Schema{PK: "PK"}, seededName(table)); err != nil {
		return fmt.Errorf("tell the other shards the table is seeded: %w", err)
	}
	return nil
}

// SeedWait bounds how long a shard of a run without a START waits for
// shard 1 to create and seed the table; with a START, the wait ends with
// the run's measured window (nothing is left to join after it). Either
// gives way to ShardSpec.Wait (--shard-wait).
const SeedWait = 10 * time.Minute

// awaitSeeded waits until shard 1 has created and seeded the table, or
// ctx ends, or the wait's bound passes: then the test bed failed.
func awaitSeeded(ctx context.Context, db DynamoDB, name, table string, cfg config, duration time.Duration) error {
	deadline := time.Now().Add(SeedWait)
	why := fmt.Sprintf("%s after this shard began", SeedWait)
	switch at := cfg.shard.Start; {
	case cfg.shard.Wait > 0:
		deadline, why = time.Now().Add(cfg.shard.Wait), fmt.Sprintf("--shard-wait=%s", cfg.shard.Wait)
	case !at.IsZero():
		deadline, why = at.Add(cfg.warmup+duration), "the end of the run's measured window; --shard-wait sets another bound"
	}
	fmt.Fprintf(cfg.progress, "%s: %s: waiting for shard 1 to create and seed %s (until %s at most)\n", name, cfg.shard, table, deadline.UTC().Format(time.RFC3339))
	bounded, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for {
		err := designs.WaitActive(bounded, db, seededName(table), nil)
		switch {
		case err == nil, ctx.Err() != nil:
			return err
		case bounded.Err() != nil:
			return failure.TestBedFailed(fmt.Errorf("%s: shard 1 of run %q did not create and seed %s by %s (%s): start shard 1 of the run on this endpoint, or give this shard a new --run and --start",
				cfg.shard, cfg.shard.Run, table, deadline.UTC().Format(time.RFC3339), why))
		}
		fmt.Fprintf(cfg.progress, "%s: %s: %s is not seeded yet (%v); still waiting\n", name, cfg.shard, table, err)
	}
}

// clearSignals deletes the signal tables an earlier run of this name
// left (a shard interrupted, or alone): a stale done signal would have
// shard 1 delete the table under a shard still running. A run whose own
// table exists is another shard 1's, which createTable refuses; its
// signals are left alone.
func clearSignals(ctx context.Context, db DynamoDB, table string, cfg config) {
	_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var gone *types.ResourceNotFoundException
	if !errors.As(err, &gone) {
		return
	}
	names := []string{seededName(table), abandonedName(table)}
	for i := 2; i <= cfg.shard.N; i++ {
		names = append(names, doneName(table, i))
	}
	for _, n := range names {
		if err := designs.DeleteTable(ctx, db, n); err == nil {
			fmt.Fprintf(cfg.progress, "bench: %s: deleted %s, a signal an earlier run of this name left\n", cfg.shard, n)
		}
	}
}

// abandonedName is the table shard 1 creates when it ends before the
// other shards are done with the run's table, which it leaves to them.
func abandonedName(table string) string { return table + "-abandoned" }

// stillRunning lists the other shards that have not said they are done
// with the table. Call it from shard 1 only.
func stillRunning(ctx context.Context, db DynamoDB, table string, cfg config) []int {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var running []int
	for i := 2; i <= cfg.shard.N; i++ {
		_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(doneName(table, i))})
		var gone *types.ResourceNotFoundException
		if errors.As(err, &gone) {
			running = append(running, i)
		}
	}
	return running
}

// abandon leaves the run's table to the shards still running: it says so,
// and marks the run abandoned, so the last of them to end deletes the
// table and every signal (finishAbandoned).
func abandon(ctx context.Context, db DynamoDB, table string, cfg config, running []int) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := designs.CreateTable(ctx, db, designs.Schema{PK: "PK"}, abandonedName(table)); err != nil {
		fmt.Fprintf(cfg.progress, "bench: %s: could not mark %s abandoned (%v): delete it with ddbharness tables -delete once shard(s) %v end\n", cfg.shard, table, err, running)
		return
	}
	fmt.Fprintf(cfg.progress, "bench: %s: left %s to shard(s) %v, still running: the last of them to end deletes it\n", cfg.shard, table, running)
}

// finishAbandoned deletes the run's table and its signals when shard 1 has
// left them and every other shard is done. Call it after signalling done.
func finishAbandoned(ctx context.Context, db DynamoDB, table string, cfg config) {
	if _, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(abandonedName(table))}); err != nil {
		return
	}
	if len(stillRunning(ctx, db, table, cfg)) > 0 {
		return
	}
	for _, n := range []string{table, seededName(table)} {
		_ = designs.DeleteTable(ctx, db, n)
	}
	for i := 2; i <= cfg.shard.N; i++ {
		_ = designs.DeleteTable(ctx, db, doneName(table, i))
	}
	_ = designs.DeleteTable(ctx, db, abandonedName(table))
	fmt.Fprintf(cfg.progress, "bench: %s: the last shard to end: deleted %s, which shard 1 left to the others\n", cfg.shard, table)
}

// doneName is the table shard i creates once it is done with the run's
// table.
func doneName(table string, i int) string { return fmt.Sprintf("%s-done%d", table, i) }

// signalDone tells shard 1 this shard is done with the table, whatever
// way its run ended. It does not wait for the signal to be active.
func signalDone(ctx context.Context, db DynamoDB, table string, cfg config) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	done := doneName(table, cfg.shard.I)
	in := designs.Schema{PK: "PK"}.CreateTableInput(done)
	if _, err := db.CreateTable(ctx, in); err != nil {
		fmt.Fprintf(cfg.progress, "bench: %s: could not tell shard 1 this shard is done (%v): it deletes the table %s after the run's end anyway\n", cfg.shard, err, ShardGrace)
		return
	}
	// Shard 1 deletes the signals when it deletes the run's table: a
	// signal made after that (this shard late, alone, or shard 1 gone)
	// would be left behind, so it goes now.
	_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var gone *types.ResourceNotFoundException
	if errors.As(err, &gone) {
		_ = designs.DeleteTable(ctx, db, done)
		return
	}
	finishAbandoned(ctx, db, table, cfg)
}

// awaitShards waits until every other shard is done with the table, or
// the run's common end with ShardGrace has passed, or ctx ends.
func awaitShards(ctx context.Context, db DynamoDB, table string, cfg config, sc workload.Scenario) {
	start := cfg.shard.Start
	if start.IsZero() {
		start = time.Now()
	}
	deadline := later(start.Add(cfg.warmup+sc.Duration+cfg.drain+ShardGrace), time.Now().Add(ShardGrace))
	fmt.Fprintf(cfg.progress, "%s: %s: waiting for the other shards to be done with %s (until %s at most)\n", sc.Name, cfg.shard, table, deadline.UTC().Format(time.RFC3339))
	for i := 2; i <= cfg.shard.N; i++ {
		for {
			_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(doneName(table, i))})
			if err == nil || ctx.Err() != nil {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(cfg.progress, "%s: shard %d/%d did not say it was done by %s: deleting %s anyway\n", sc.Name, i, cfg.shard.N, deadline.UTC().Format(time.RFC3339), table)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// awaitStart waits until the shards' common start, or ctx ends, and
// returns how late this shard was ready for it (0: on time).
func awaitStart(ctx context.Context, name string, cfg config) time.Duration {
	at := cfg.shard.Start
	if at.IsZero() {
		return 0
	}
	wait := time.Until(at)
	if wait <= 0 {
		fmt.Fprintf(cfg.progress, "%s: ready %s after the start at %s: measuring from now\n", name, (-wait).Round(time.Millisecond), at.UTC().Format(time.RFC3339))
		return -wait
	}
	fmt.Fprintf(cfg.progress, "%s: measuring starts at %s, in %s\n", name, at.UTC().Format(time.RFC3339), wait.Round(time.Second))
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return 0
}

// memorySeed routes a shard's seed to memory: the driver writes the same
// items shard 1 writes to the table, so the instrumented client above it
// knows them, and nothing reaches DynamoDB. After Done it routes to the
// real client.
type memorySeed struct {
	designs.Routed
	db      designs.DB // the real client
	sink    *memtable.Memory
	seeding atomic.Bool
}

func newMemorySeed(db designs.DB, s designs.Schema, table string) *memorySeed {
	m := &memorySeed{db: db, sink: memtable.NewMemory(s.ItemSchema(), table)}
	m.Route = func(context.Context, designs.Operation) (designs.DB, error) {
		if m.seeding.Load() {
			return m.sink, nil
		}
		return m.db, nil
	}
	m.seeding.Store(true)
	return m
}

// Done ends the seed: calls go to DynamoDB from now on.
func (m *memorySeed) Done() { m.seeding.Store(false) }
