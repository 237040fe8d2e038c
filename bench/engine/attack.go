package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// attack paces a scenario's mix: one goroutine draws each call's step and
// key and its due time from the pacer, a bounded pool of workers makes the
// calls. Latency counts from the due time, so calls that wait for a worker
// (a stalled server keeps them all busy) show the wait instead of hiding it.
type attack struct {
	driver  workload.Driver
	pacer   vegeta.Pacer
	steps   []step
	total   int // sum of weights
	workers int
	backlog int
	drain   time.Duration
	seed    int64
	shard   ShardSpec
	tb      *bed
	measure Measurer // nil: none

	// What the stall watch reads while measuring.
	inflight atomic.Int64 // calls started and not yet ended
	ended    atomic.Int64 // calls ended
	lastEnd  atomic.Int64 // when the latest call ended, in Unix nanoseconds
	cutOff   atomic.Int64 // calls the run's own drain deadline cut short

	// A closed loop's workers draw their calls themselves: each call's due
	// time and number are taken together, so numbers follow due times.
	loopMu    sync.Mutex
	loopSeq   []uint64 // per step
	loopCalls uint64   // all steps: numbers each call's own stream

	// phase counts the runs (the warm-up, then the measured window), so
	// the calls of each draw from streams of their own.
	phase uint64
}

// step is one step of the mix, with what each of its Results repeats.
type step struct {
	workload.Step
	ctx    context.Context // carries the pattern ID, made once
	upto   int             // cumulative weight
	keys   int             // how many keys it draws from: its pool's size
	method string
	url    string
	// refusalIsError: the scenario counts this pattern's refusals as
	// errors (workload.Scenario.RefusalsAsErrors).
	refusalIsError bool
}

// ticket is one call the pacer made due: seq numbers it among its
// pattern's calls in order of due time (vegeta's Result.Seq).
type ticket struct {
	step int
	key  int
	due  time.Time
	seq  uint64
	hit  uint64 // the call's number in the schedule, all shards' calls counted
}

// newAttack paces sc's mix on d, each step drawing from keys[i] keys
// (sc.KeySpace).
func newAttack(sc workload.Scenario, d workload.Driver, keys []int, cfg config, tb *bed) *attack {
	a := &attack{driver: d, pacer: sc.Pacer, workers: cfg.workers,
		backlog: DefaultBacklog, drain: cfg.drain, seed: cfg.seed, shard: cfg.shard, tb: tb,
		measure: cfg.measurer}
	for i, st := range sc.Mix {
		if st.Weight <= 0 {
			continue
		}
		if st.Keys == nil {
			st.Keys = workload.Uniform{}
		}
		p, _ := sc.Design.Pattern(st.Pattern)
		a.total += st.Weight
		a.steps = append(a.steps, step{Step: st, upto: a.total, keys: keys[i], method: string(p.Op),
			url: "ddb://" + sc.Design.Name + "/" + string(st.Pattern), refusalIsError: sc.RefusalIsError(st.Pattern)})
	}
	return a
}

// pick draws a step by weight and a key of its pool from its distribution.
func (a *attack) pick(r *rand.Rand) (int, int) {
	w := r.IntN(a.total)
	i := 0
	for a.steps[i].upto <= w {
		i++
	}
	return i, a.steps[i].Keys.Pick(r, a.steps[i].keys)
}

// run paces the mix for d and sends each finished call to c (nil: the
// calls are not measured, as in the warm-up). It returns how many due calls
// it never sent because the run ended first. Cancelling ctx (an interrupt,
// or the test bed failing) stops it at once and drops the calls it cut
// short. While measuring, it notes the test bed falling behind the pace.
// Calls are due at began plus the pacer's offsets: began is the run's
// Started, so a merge can put shards' calls on one schedule.
func (a *attack) run(ctx context.Context, began time.Time, d time.Duration, c *collector) (unsent int) {
	calls, stopCalls := context.WithCancel(ctx)
	defer stopCalls()
	a.phase++
	for i := range a.steps {
		a.steps[i].ctx = designs.WithPattern(calls, a.steps[i].Pattern)
	}
	a.ended.Store(0)
	a.lastEnd.Store(began.UnixNano())
	var late func(due, now time.Time) // notes a call that waited for a worker
	if c != nil {
		c.start(began)
		defer c.stop()
		late = func(due, now time.Time) {
			if wait := now.Sub(due); wait > SaturationWait && !a.tb.sat.Load() {
				a.tb.saturate(due.Sub(began), a.rate(due.Sub(began)), func() string {
					return fmt.Sprintf("a call due at %s waited %s for one of the %d workers, all busy with calls the server had not answered",
						due.Sub(began).Round(time.Millisecond), wait.Round(time.Millisecond), a.workers)
				})
			}
		}
		quit := make(chan struct{})
		defer close(quit)
		go a.watchStalls(began, quit)
	}
	var mu sync.Mutex
	record := func(res *vegeta.Result) {
		if c != nil {
			c.add(res)
		}
	}
	notSent := func(n int) {
		mu.Lock()
		unsent += n
		mu.Unlock()
	}

	var wg sync.WaitGroup
	if unbounded(a.pacer) {
		a.loopSeq = make([]uint64, len(a.steps))
		for w := range a.workers {
			wg.Go(func() { a.closedLoop(ctx, calls, began.Add(d), c, w, record) })
		}
		wg.Wait()
		return 0
	}
	tickets := make(chan ticket, a.backlog)
	for w := range a.workers {
		wg.Go(func() { notSent(a.work(ctx, calls, tickets, c, w, record, late)) })
	}
	early := c.early()
	a.schedule(ctx, began, d, early, tickets)
	close(tickets)
	// Calls already due may finish for a while after the window; then the
	// rest are cut.
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	cut := time.NewTimer(time.Until(began.Add(d + a.drain)))
	defer cut.Stop()
	for {
		select {
		case <-drained:
			return unsent
		case <-early:
			early = nil
			cut.Reset(time.Until(c.endedAt.Add(a.drain)))
		case <-cut.C:
			stopCalls()
			<-drained
			return unsent
		}
	}
}

// schedule queues one ticket per call with its due time, from the pacer
// alone, asked as if every call had left on time: due times do not move
// when calls wait. It runs ahead of the clock as far as the backlog lets
// it, and each worker sleeps until its own ticket is due. It stops when
// early closes: the window has ended.
func (a *attack) schedule(ctx context.Context, began time.Time, d time.Duration, early <-chan struct{}, tickets chan<- ticket) {
	r := rand.New(rand.NewPCG(uint64(a.seed), 0))
	// Numbered here, in due order, and counting every shard's calls: the
	// shards' results together are numbered as one machine's.
	seq := make([]uint64, len(a.steps))
	paced(a.pacer, d, func(hits uint64, at time.Duration) bool {
		st, key := a.pick(r)
		n := seq[st]
		seq[st]++
		if !a.shard.owns(hits) {
			return true
		}
		select {
		case tickets <- ticket{step: st, key: key, due: began.Add(at), seq: n, hit: hits}:
			return true
		case <-ctx.Done():
			return false
		case <-early:
			return false
		}
	})
}

// paced calls f with each call's number and due time, as the pacer spaces
// them in a window of d: the first one interval in, none at d itself;
// until the window or the pacer ends, or f returns false.
func paced(p vegeta.Pacer, d time.Duration, f func(hits uint64, at time.Duration) bool) {
	var at time.Duration // the due time of the previous call
	for hits := uint64(0); ; hits++ {
		wait, stop := p.Pace(at, hits)
		if stop || at+wait >= d {
			return
		}
		at += max(wait, 0)
		if !f(hits, at) {
			return
		}
	}
}

// owns reports whether the schedule's call number hit is this shard's:
// every N-th, the I-th of each N. Every call is still drawn, so each shard
// draws the same steps and keys as one machine would.
func (s ShardSpec) owns(hit uint64) bool {
	n := uint64(max(s.N, 1))
	return hit%n == uint64(max(s.I, 1)-1)
}

// MakesCalls reports whether a run paced by p for d gives shard (the zero
// ShardSpec: a run of one machine) at least one call, counted as the
// schedule counts them: a run without one would measure nothing.
func MakesCalls(p vegeta.Pacer, d time.Duration, shard ShardSpec) bool {
	found := false
	paced(p, d, func(hits uint64, _ time.Duration) bool {
		found = shard.owns(hits)
		return !found
	})
	return found
}

// callRand is a source whose stream callStream sets before each call.
func callRand() (*rand.Rand, *rand.PCG) {
	src := rand.NewPCG(0, 0)
	return rand.New(src), src
}

// callStream seeds src for the call numbered n of the run's current phase:
// what a call generates (IDs of new items, payloads, the extra items of an
// order) is then the same on any machine, whichever worker makes it and
// however the calls interleave, so a run's items, sizes and the limits
// computed from them do not move with the machine's pace. The top bit
// keeps call streams apart from the schedule's (0); numbers are the
// schedule's, counted over every shard, so shards never draw alike.
func (a *attack) callStream(src *rand.PCG, n uint64) {
	src.Seed(uint64(a.seed), 1<<63|a.phase<<48|n&(1<<48-1))
}

// work makes the calls of the tickets it receives, each when it is due,
// until they run out or the run is interrupted; it returns how many it
// could not send before the run was cut. Tickets due after a window that
// c ended early are dropped: they were never due.
func (a *attack) work(ctx, calls context.Context, tickets <-chan ticket, c *collector, w int, record func(*vegeta.Result), late func(due, now time.Time)) (unsent int) {
	r, src := callRand()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	early := c.early()
	for t := range tickets {
		if wait := time.Until(t.due); wait > 0 && calls.Err() == nil {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-calls.Done():
				timer.Stop()
			case <-early:
				timer.Stop()
			}
		}
		switch {
		case ctx.Err() != nil: // interrupted: drain the queue without calling
		case early != nil && c.over(t.due):
		case calls.Err() != nil:
			unsent++
		default:
			if late != nil {
				late(t.due, time.Now())
			}
			a.callStream(src, t.hit)
			a.call(ctx, t, r, record)
		}
	}
	return unsent
}

// closedLoop calls back to back until the deadline: the pacer asked for
// no pacing at all, so each call is due when the previous one ends.
func (a *attack) closedLoop(ctx, calls context.Context, deadline time.Time, c *collector, w int, record func(*vegeta.Result)) {
	r, src := callRand()
	for calls.Err() == nil {
		a.loopMu.Lock()
		// Drawn under the lock from the loop's own numbering: a closed
		// loop has no schedule, so its calls are numbered as they start.
		n := a.loopCalls*uint64(max(a.shard.N, 1)) + uint64(max(a.shard.I, 1)-1)
		a.loopCalls++
		a.callStream(src, n)
		st, key := a.pick(r)
		t := ticket{step: st, key: key, due: time.Now(), seq: a.loopSeq[st]}
		a.loopSeq[st]++
		a.loopMu.Unlock()
		if !t.due.Before(deadline) || c.early() != nil && c.over(t.due) {
			return
		}
		a.call(ctx, t, r, record)
	}
}

// call makes one call and records it, unless the run was interrupted under
// it: then its latency means nothing. The Measurer learns whether the call
// was counted.
func (a *attack) call(ctx context.Context, t ticket, r *rand.Rand, record func(*vegeta.Result)) {
	st := &a.steps[t.step]
	callCtx, counted := st.ctx, func(bool) {}
	if a.measure != nil {
		callCtx, counted = a.measure.Call(st.ctx)
	}
	a.inflight.Add(1)
	err := a.driver.Call(callCtx, st.Pattern, t.key, r)
	end := time.Now()
	a.inflight.Add(-1)
	a.ended.Add(1)
	a.lastEnd.Store(end.UnixNano())
	if err != nil && ctx.Err() != nil {
		counted(false)
		return
	}
	if err != nil && st.ctx.Err() != nil {
		// The run's own drain deadline cut it short: neither the design's
		// outcome nor a latency; counted apart (Outcome.CutOff).
		a.cutOff.Add(1)
		counted(false)
		return
	}
	counted(true)
	classOf := Classify
	if st.refusalIsError {
		classOf = ClassifyAsError
	}
	code, class := classOf(err)
	a.tb.callEnded(end, err, code)
	record(&vegeta.Result{
		Attack:    string(st.Pattern),
		Seq:       t.seq,
		Code:      code,
		Timestamp: t.due,
		Latency:   end.Sub(t.due),
		Error:     class,
		Method:    st.method,
		URL:       st.url,
	})
}

// watchStalls notes the test bed stalling while measuring: no call ended
// for StallAfter with calls in flight. It looks four times per StallAfter,
// until quit closes.
func (a *attack) watchStalls(began time.Time, quit <-chan struct{}) {
	tick := time.NewTicker(StallAfter / 4)
	defer tick.Stop()
	for {
		select {
		case <-quit:
			return
		case now := <-tick.C:
			n := a.inflight.Load()
			last := time.Unix(0, a.lastEnd.Load())
			if idle := now.Sub(last); n > 0 && idle >= StallAfter {
				a.tb.saturate(last.Sub(began), a.rate(last.Sub(began)), func() string {
					return fmt.Sprintf("no call ended for %s while %d were in flight: the server stalled", idle.Round(time.Millisecond), n)
				})
			}
		}
	}
}

// rate is the rate the pacer asked for at elapsed; for a run with no pace,
// the rate achieved so far.
func (a *attack) rate(elapsed time.Duration) float64 {
	if unbounded(a.pacer) {
		if elapsed <= 0 {
			return 0
		}
		return float64(a.ended.Load()) / elapsed.Seconds()
	}
	return a.pacer.Rate(elapsed)
}

// unbounded reports whether the pacer sets no rate at all: vegeta's
// ConstantPacer with no frequency, which its own attacker reads as "as fast
// as the workers go". Asking other pacers about absurd hit counts is no
// test: SinePacer's numeric solver overflows and answers "now".
func unbounded(p vegeta.Pacer) bool {
	switch c := p.(type) {
	case vegeta.ConstantPacer:
		return c.Freq == 0
	case *vegeta.ConstantPacer:
		return c.Freq == 0
	}
	return false
}
