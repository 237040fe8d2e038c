package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// errNotHigher is a design's refusal: a score kept only if it beats the
// best.
var errNotHigher = designs.Refusal("score not higher than the best")

// refuser refuses every AP-01 call and loses every AP-02 call to a
// transaction conflict.
type refuser struct{}

func (refuser) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (refuser) Call(_ context.Context, p designs.PatternID, key int, _ *rand.Rand) error {
	if p == "AP-01" {
		return fmt.Errorf("AP-01: player %d: %w", key, errNotHigher)
	}
	return fmt.Errorf("AP-02: player %d: %w", key, designs.ErrTransactionConflict)
}

// refusing is a scenario of refuser over twoPools' patterns.
func refusing(asErrors ...designs.PatternID) workload.Scenario {
	return workload.Scenario{Name: "fake/refuse", Design: twoPools, Pool: 10, Pacer: perSecond(100), Duration: 2 * time.Second,
		Mix:              []workload.Step{{Pattern: "AP-01", Weight: 1}, {Pattern: "AP-02", Weight: 1}},
		Driver:           func(designs.DB, string, int64) workload.Driver { return refuser{} },
		RefusalsAsErrors: asErrors}
}

// calls counts a run's results of pattern p with status code.
func calls(out ran, p string, code uint16) int {
	n := 0
	for _, r := range out.Results {
		if r.Attack == p && r.Code == code {
			n++
		}
	}
	return n
}

// A refusal is an outcome: counted apart from the errors in the tally, the
// results file and the progress line, and answered in vegeta's Success;
// a conflict after its retries stays an error.
func TestRefusalsAreCountedApartFromErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var progress strings.Builder
		out := run(t, refusing(), engine.Progress(&progress))
		refused, conflicts := calls(out, "AP-01", engine.StatusRefused), calls(out, "AP-02", engine.StatusConflict)
		if refused == 0 || conflicts == 0 || refused+conflicts != len(out.Results) {
			t.Fatalf("%d AP-01 calls refused (299) and %d AP-02 in conflict (409) of %d: want every AP-01 refused and every AP-02 in conflict",
				refused, conflicts, len(out.Results))
		}
		wantRefusals := []engine.ErrorCount{{Pattern: "AP-01", Code: engine.StatusRefused, Error: errNotHigher.Error(), Calls: refused}}
		wantErrors := []engine.ErrorCount{{Pattern: "AP-02", Code: engine.StatusConflict, Error: "transaction conflict", Calls: conflicts}}
		if !slices.Equal(out.Refusals, wantRefusals) || !slices.Equal(out.Errors, wantErrors) {
			t.Errorf("refusals %v, errors %v: want %v and %v", out.Refusals, out.Errors, wantRefusals, wantErrors)
		}
		if want := float64(refused) / float64(len(out.Results)); out.Total.Success != want || out.Patterns[0].Metrics.Success != 1 {
			t.Errorf("success %.3f of the mix, %.3f of AP-01: want %.3f and 1, the refusals answered", out.Total.Success, out.Patterns[0].Metrics.Success, want)
		}
		if got, want := engine.Refused(out.Total), uint64(refused); got != want || engine.Errored(out.Total) != uint64(conflicts) {
			t.Errorf("Refused %d, Errored %d: want %d and %d", got, engine.Errored(out.Total), want, conflicts)
		}
		lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
		if last, want := lines[len(lines)-1], fmt.Sprintf("errors %d, refused %d", conflicts, refused); !strings.HasSuffix(last, want) {
			t.Errorf("last progress line %q: want it to end %q", last, want)
		}
	})
}

// A scenario that counts a pattern's refusals as errors gets them as
// before refusals were counted apart: 409, among the errors.
func TestAScenarioCountsAPatternsRefusalsAsErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		out := run(t, refusing("AP-01"))
		failed := calls(out, "AP-01", engine.StatusConflict)
		if failed == 0 || calls(out, "AP-01", engine.StatusRefused) != 0 || len(out.Refusals) != 0 {
			t.Fatalf("AP-01: %d calls 409, %d refused; refusals %v: want every call 409 and none refused",
				failed, calls(out, "AP-01", engine.StatusRefused), out.Refusals)
		}
		if !slices.Contains(out.Errors, engine.ErrorCount{Pattern: "AP-01", Code: engine.StatusConflict, Error: errNotHigher.Error(), Calls: failed}) {
			t.Errorf("errors %v: want AP-01's %d refusals among them", out.Errors, failed)
		}
		if out.Total.Success != 0 {
			t.Errorf("success %.3f: want 0, every call an error", out.Total.Success)
		}
	})
}
