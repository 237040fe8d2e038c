package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/workload"
)

// runTable is the table a run uses, from its creation to its deletion: the
// lead machine (shard 1, or the only one) creates it and deletes it after
// the run; any other shard waits for it to be seeded, seeds into memory,
// and tells the lead when it is done (shard.go).
type runTable struct {
	db      DynamoDB
	name    string
	sc      workload.Scenario
	cfg     config
	tb      *bed
	created bool        // the lead created it: close deletes it
	dry     *memorySeed // a shard's seed into memory; nil on the lead
}

func newRunTable(db DynamoDB, sc workload.Scenario, cfg config, tb *bed) *runTable {
	return &runTable{db: db, name: tableName(sc.Design.Name, cfg.shard), sc: sc, cfg: cfg, tb: tb}
}

// open makes the table ready to seed: the lead creates it (clearing the
// signals an earlier run of a sharded name left); another shard waits
// until the lead has seeded it.
func (t *runTable) open(ctx context.Context) error {
	if !t.cfg.shard.leads() {
		if err := awaitSeeded(ctx, t.db, t.sc.Name, t.name, t.cfg, t.sc.Duration); err != nil {
			return err
		}
		t.dry = newMemorySeed(t.db, t.sc.Design.Schema, t.name)
		return nil
	}
	if t.cfg.shard.Sharded() {
		clearSignals(ctx, t.db, t.name, t.cfg)
	}
	if err := createTable(ctx, t.db, t.sc, t.name, t.cfg); err != nil {
		return err
	}
	t.created = true
	return nil
}

// client is what the driver seeds through: the table, or memory on a
// shard that does not lead, until seeded.
func (t *runTable) client() designs.DB {
	if t.dry != nil {
		return t.dry
	}
	return t.db
}

// seeded ends the seed: a shard's calls go to the table from now on; the
// lead of a sharded run tells the other shards they may start.
func (t *runTable) seeded(ctx context.Context) error {
	switch {
	case t.dry != nil:
		t.dry.Done()
	case t.cfg.shard.Sharded():
		return signalSeeded(ctx, t.db, t.name)
	}
	return nil
}

// close ends the run's use of the table, however the run ended: the lead
// deletes what it created (finishTable); another shard tells the lead it
// is done.
func (t *runTable) close(ctx context.Context) {
	switch {
	case !t.cfg.shard.leads():
		signalDone(ctx, t.db, t.name, t.cfg)
	case t.created:
		finishTable(ctx, t.db, t.name, t.tb, t.cfg, t.sc)
	}
}

// KeepTable leaves the run's table in place for inspection instead of
// deleting it.
func KeepTable() Option { return func(c *config) { c.keep = true } }

// tableName is the run's table: a fresh name for a run of its own, the
// run's for a named (sharded) one.
func tableName(design string, s ShardSpec) string {
	if s.Run == "" {
		return designs.TableName(design, "bench")
	}
	return designs.TablePrefix + design + "-" + s.Run
}

// createTable creates the run's table (with the scenario's warm and
// maximum throughput on an on-demand table) and waits, with progress,
// until it and every GSI are active.
func createTable(ctx context.Context, db DynamoDB, sc workload.Scenario, table string, cfg config) error {
	in := sc.Design.Schema.CreateTableInput(table)
	designs.AskWarm(in, sc.Warm.Reads, sc.Warm.Writes)
	designs.AskMaxOnDemand(in, sc.MaxOnDemand.Reads, sc.MaxOnDemand.Writes)
	err := designs.Create(ctx, db, in, tableProgress(cfg, sc.Name))
	var inUse *types.ResourceInUseException
	if cfg.shard.Run != "" && errors.As(err, &inUse) {
		return failure.BadInputf("%s: the run's table %s already exists: another shard 1 of run %q holds it, or an earlier run of that name left it; give this run a new --run, or delete the table with ddbharness tables -delete if no run uses it",
			cfg.shard, table, cfg.shard.Run)
	}
	return err
}

// tableProgress prints a table's state while it is created.
func tableProgress(cfg config, name string) func(designs.TableState) {
	return func(st designs.TableState) {
		fmt.Fprintf(cfg.progress, "%s: waiting for %s: %s (%s)\n", name, st.Table, st, st.Waited.Round(time.Second))
	}
}

// finishTable deletes the run's table, or says how to when it is kept.
// Shard 1 of a sharded run first waits until the other shards are done
// with it, unless interrupted, and deletes the shards' signals too.
func finishTable(ctx context.Context, db DynamoDB, table string, tb *bed, cfg config, sc workload.Scenario) {
	if cfg.keep {
		fmt.Fprintf(cfg.progress, "bench: kept table %s for inspection; delete it with: ddbharness tables -delete (or aws dynamodb delete-table --table-name %s)\n", table, table)
		return
	}
	if s := cfg.shard; s.Sharded() {
		if ctx.Err() == nil && !tb.failed() {
			awaitShards(ctx, db, table, cfg, sc)
		} else if running := stillRunning(ctx, db, table, cfg); len(running) > 0 {
			// Interrupted (or failed) while other shards use the table: it
			// stays for them, and the last of them to end deletes it.
			abandon(ctx, db, table, cfg, running)
			return
		}
		for i := 2; i <= s.N; i++ {
			deleteTable(ctx, db, doneName(table, i), tb, cfg)
		}
		deleteTable(ctx, db, seededName(table), tb, cfg)
	}
	deleteTable(ctx, db, table, tb, cfg)
}

// deleteTable deletes the run's table; after the test bed failed it tries
// only briefly, and not at all when the watched service (whose tables were
// in memory) has exited.
func deleteTable(ctx context.Context, db DynamoDB, table string, tb *bed, cfg config) {
	wait := time.Minute
	if tb.failed() && !cfg.remote { // a remote table left behind costs money: keep trying
		select {
		case <-cfg.watch:
			return
		default:
		}
		wait = FailedCleanup
	}
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), wait)
	defer cancel()
	// Tried again until the wait is over: after a failure the SDK's retry
	// quota is spent, so a single call would give up at once.
	for told := false; ; told = true {
		err := designs.DeleteTable(cleanup, db, table)
		if err == nil {
			return
		}
		if !told {
			deadline, _ := cleanup.Deadline()
			fmt.Fprintf(cfg.progress, "bench: table %s not deleted yet (%s); trying again until %s\n",
				table, strings.Join(strings.Fields(err.Error()), " "), deadline.Format(time.TimeOnly))
		}
		select {
		case <-cleanup.Done():
			fmt.Fprintf(cfg.progress, "bench: table %s not deleted: %s\n", table, strings.Join(strings.Fields(err.Error()), " "))
			return
		case <-time.After(time.Second):
		}
	}
}
