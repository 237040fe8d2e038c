package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// drawing is a driver that notes what each call drew from its source, and
// takes a pause that differs from call to call, so that workers end their
// calls in an order of their own.
type drawing struct {
	mu    sync.Mutex
	drawn []string // "key value", one per call
}

func (*drawing) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (d *drawing) Call(ctx context.Context, _ designs.PatternID, key int, r *rand.Rand) error {
	v := r.Uint64()
	d.mu.Lock()
	d.drawn = append(d.drawn, fmt.Sprintf("%d %x", key, v))
	d.mu.Unlock()
	return pause(ctx, time.Duration(v%7)*time.Millisecond)
}

// draws runs a drawing driver over 200 calls with workers workers (and a
// warm-up of warmup) and returns what its calls drew, sorted.
func draws(t *testing.T, workers int, warmup time.Duration) []string {
	d := &drawing{}
	sc := sleeping(0, workload.Scenario{Pacer: perSecond(400), Duration: 500 * time.Millisecond})
	sc.Mix[0].Keys = workload.Zipf{S: 1.1}
	sc.Pool = 100
	sc.Driver = func(designs.DB, string, int64) workload.Driver { return d }
	run(t, sc, engine.Workers(workers), engine.Warmup(warmup))
	return slices.Sorted(slices.Values(d.drawn))
}

// What a call generates comes from a source of its own, seeded by the
// call's place in the schedule: the same on any machine, whichever worker
// makes it. A run's items and sizes, and the first limit computed from
// them, would otherwise follow the order in which a machine's workers
// happened to pick up the calls.
func TestEachCallDrawsTheSameWhicheverWorkerMakesIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		one, many := draws(t, 1, 0), draws(t, 16, 0)
		if len(one) != 199 {
			t.Fatalf("%d calls, want the 199 due in 500 ms at 400/s", len(one))
		}
		if !slices.Equal(one, many) {
			t.Errorf("the calls drew other values with 16 workers than with 1:\n%v\n%v", one[:5], many[:5])
		}
	})
}

// The warm-up's calls and the measured window's draw from streams of
// their own: a window that replayed the warm-up's values would make the
// items the warm-up made again.
func TestNoTwoCallsOfARunDrawAlike(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		drawn := draws(t, 8, 500*time.Millisecond)
		values := map[string]int{}
		for _, s := range drawn {
			var key int
			var v string
			fmt.Sscanf(s, "%d %s", &key, &v)
			values[v]++
		}
		if len(drawn) != 2*199 || len(values) != len(drawn) {
			t.Errorf("%d calls drew %d distinct values, want 398 calls (warm-up and window) each its own", len(drawn), len(values))
		}
	})
}
