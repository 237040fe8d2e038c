package endpoint

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/workload"
)

// traffic is what one table's emulated calls were, for the report a bench
// writes: the engine's tally of them (each operation is a "pattern"), and
// the capacity ledger the meter's observations fill.
type traffic struct {
	mu     sync.Mutex
	ledger *ledger.Ledger
	first  time.Time
	last   time.Time
	tally  *engine.Tally
}

func newTraffic(s designs.Schema) *traffic {
	return &traffic{ledger: ledger.NewLedger(s), tally: engine.NewOpenTally()}
}

// observe charges one observed call in the ledger; nothing for a part
// cancelled with its transaction, which another table refused (joint.go).
func (t *traffic) observe(ctx context.Context, o pricing.Observation) []pricing.Charge {
	if p, _ := ctx.Value(partKey{}).(*part); p != nil && p.cancelled.Load() {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ledger.Observe(o)
}

// record adds one call of op that began at start and was answered with
// status, and err's exception when it failed. A failed call's status is the
// engine's for its error (engine.Classify: 429 for throttled, 409 for a
// conflict...), so the report counts it where a bench's counts it.
func (t *traffic) record(op string, start time.Time, status uint16, err error) {
	end := time.Now()
	r := &vegeta.Result{Attack: op, Code: status, Timestamp: start, Latency: end.Sub(start)}
	if err != nil {
		r.Error = errorName(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.first.IsZero() {
		t.first = start
	}
	t.last = end
	t.tally.Add(r)
}

// calls is how many calls the table's traffic counts.
func (t *traffic) calls() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(t.tally.Requests())
}

// errorName is an error answer's exception: the report counts errors by
// it, not by each message.
func errorName(err error) string {
	var api interface{ ErrorCode() string }
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return err.Error()
}

// Report writes, under root, the report a bench writes for the traffic
// each emulated table saw (summary.md, metrics.json, heat.svg...), one
// folder a table, and returns their paths.
func (h *Handler) Report(root string) ([]string, error) {
	h.mu.Lock()
	tables := slices.Collect(func(yield func(*table) bool) {
		for _, t := range h.tables {
			if !yield(t) {
				return
			}
		}
	})
	tables = append(tables, h.retired...)
	h.mu.Unlock()
	var dirs []string
	var errs []error
	for _, t := range tables {
		out, ok := h.outcome(t)
		if !ok {
			continue
		}
		dir, err := report.Write(root, out)
		if dir != "" {
			dirs = append(dirs, dir)
		}
		errs = append(errs, err)
	}
	return dirs, errors.Join(errs...)
}

// maxFolderName bounds the part of a report's folder name a table's name
// gives: a file name holds 255 bytes, and a table's name may be 255
// characters long, with the run's time and scenario still to add.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html
const maxFolderName = 200

// folderName is name, or, when longer than maxFolderName, its start and a
// hash of the whole, so that two long names sharing a start stay apart.
func folderName(name string) string {
	if len(name) <= maxFolderName {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s-%08x", name[:maxFolderName-9], h.Sum32())
}

// outcome is a table's traffic as a run's outcome (bench.NewOutcome):
// each operation a pattern, the calls the clients', modelled by the
// capacity model as the table's emulator was configured.
func (h *Handler) outcome(t *table) (bench.Outcome, bool) {
	tr := t.traffic
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.tally.Requests() == 0 {
		return bench.Outcome{}, false
	}
	span := tr.last.Sub(tr.first)
	eo := engine.Outcome{Scenario: "endpoint", About: "the calls ddbharness local --limits served", Design: folderName(t.name), Table: t.name,
		Started: tr.first, Elapsed: span, Duration: span, Total: tr.tally.Total(), Errors: tr.tally.Errors(), Refusals: tr.tally.Refusals()}
	for _, op := range tr.tally.Patterns() {
		eo.Patterns = append(eo.Patterns, engine.PatternMetrics{Pattern: designs.Pattern{ID: designs.PatternID(op), Name: op,
			Op: designs.Operation(op), Index: designs.MainTable}, Weight: 1, Metrics: tr.tally.Pattern(op)})
	}
	cfg := t.cfg
	return bench.NewOutcome(bench.Measured{Outcome: eo, Scenario: workload.Scenario{Design: designs.Design{Name: eo.Design, Schema: t.schema}},
		Limits: bench.Limits{Scale: t.em.Scale(), PlacementSeed: cfg.PlacementSeed, NoConflicts: cfg.NoConflicts},
		Ledger: tr.ledger, Inputs: bench.ModelInputs{Requests: int64(eo.Total.Requests), Span: span}, Emulator: t.em, Clients: true}), true
}
