package cost

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// samples is how many calls of each step the estimate runs in memory.
const samples = 32

// measure runs calls of step st (pattern p) through the seeded driver on
// the in-memory table, keys drawn as the engine draws them from keys, and
// returns what a call consumed on average. A call that failed is left out
// (DynamoDB charges a cancelled transaction about what a successful one
// costs), and so is one that made no request. ok is false when no call
// counted, or when the pattern needs a request the in-memory table does
// not serve (a Query or Scan): the step is then estimated by perCall.
func (f *fixture) measure(ctx context.Context, st workload.Step, p designs.Pattern, keys int, r *rand.Rand) (u perCall, ok bool) {
	dist := st.Keys
	if dist == nil {
		dist = workload.Uniform{}
	}
	n := 0
	for range samples {
		var m meter
		key := dist.Pick(r, keys)
		err := f.db.metered(&m, func() error { return f.call(ctx, p.ID, key, r) })
		switch {
		case errors.Is(err, memtable.ErrUnsupported):
			return perCall{}, false
		case err != nil || m.reads+m.writes == 0:
			continue
		}
		u.rru += m.rru
		u.wru += m.wru
		n++
	}
	if n == 0 {
		return perCall{}, false
	}
	return perCall{rru: u.rru / float64(n), wru: u.wru / float64(n)}, true
}

// call runs one call of the driver; a panic is its error.
func (f *fixture) call(ctx context.Context, id designs.PatternID, key int, r *rand.Rand) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: the driver's Call panicked: %v", id, p)
		}
	}()
	return f.driver.Call(ctx, id, key, r)
}
