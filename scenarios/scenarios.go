package scenarios

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// All is every scenario, each design's default first among its own.
var All = []workload.Scenario{
	InvoicingMonthEnd, InvoicingBigClient,
	ShopBrowse, ShopConstantPartitions,
	AccountPoolLeaseChurn, AccountPoolLeaseRush,
	AgenciesTenantAdmin, AgenciesDirectory,
	ServicesDailyIntake, ServicesYearEndBurst,
	HelpdeskSupportDay,
}

// Default returns the design's default scenario: its first in All.
func Default(design string) (workload.Scenario, bool) {
	i := slices.IndexFunc(All, func(sc workload.Scenario) bool { return sc.Design.Name == design })
	if i < 0 {
		return workload.Scenario{}, false
	}
	return All[i], true
}

// Defaults returns every design's default scenario, in the order of All.
func Defaults() []workload.Scenario {
	var out []workload.Scenario
	for _, sc := range All {
		if d, _ := Default(sc.Design.Name); d.Name == sc.Name {
			out = append(out, sc)
		}
	}
	return out
}

// Find returns the scenario with the given name ("shop/browse").
func Find(name string) (workload.Scenario, bool) {
	i := slices.IndexFunc(All, func(sc workload.Scenario) bool { return sc.Name == name })
	if i < 0 {
		return workload.Scenario{}, false
	}
	return All[i], true
}

// DynamoDB Local's knees, measured on our two-core machines with client and
// server sharing the cores: open-loop GetItem stays
// healthy up to about LocalReadKnee calls a second on a young JVM, and
// transactions top out near LocalTransactKnee a second. Every scenario's
// peak stays at a fraction of both, so a run measures the design rather
// than a collapsing server.
const (
	LocalReadKnee     = 3000
	LocalTransactKnee = 750
)

// Peak is the highest rate, in calls a second, the scenario's pacer asks
// for during its duration (sampled every 100 ms).
func Peak(sc workload.Scenario) float64 {
	peak := 0.0
	for t := time.Duration(0); t <= sc.Duration; t += 100 * time.Millisecond {
		peak = max(peak, sc.Pacer.Rate(t))
	}
	return peak
}

// Share is the fraction of the mix's weight on patterns built on one of
// ops, by the design's catalog.
func Share(sc workload.Scenario, ops ...designs.Operation) float64 {
	total, on := 0, 0
	for _, st := range sc.Mix {
		total += st.Weight
		if p, ok := sc.Design.Pattern(st.Pattern); ok && slices.Contains(ops, p.Op) {
			on += st.Weight
		}
	}
	if total == 0 {
		return 0
	}
	return float64(on) / float64(total)
}

// noID is an ID no entity has: a call that finds nothing of the run's to
// act on (no lease to end, no added member to remove) uses it and meets the
// design's own not-found outcome, as a client with a stale ID would.
const noID = "no-such-id"

// ErrUnknownPattern is a Call of a pattern the driver does not drive.
var ErrUnknownPattern = errors.New("pattern not driven")

// ErrNotSeeded is a Call before Seed.
var ErrNotSeeded = errors.New("driver not seeded")

func unknown(design string, p designs.PatternID) error {
	return fmt.Errorf("%s %s: %w", design, p, ErrUnknownPattern)
}

// prefix is the first n characters of s, for prefix listings.
func prefix(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	return string(r[:min(n, len(r))])
}

// Drivers keep what a run changes (who holds a lease, which services await
// a voucher) so that calls stay meaningful as the table moves on. Each
// entity's state has its own lock: calls on other entities never wait.

// guarded is one entity's state under its own lock.
type guarded[T any] struct {
	mu sync.Mutex
	v  T
}

func (g *guarded[T]) get() T {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v
}

func (g *guarded[T]) set(v T) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v = v
}

// do runs f on the state, holding the lock.
func (g *guarded[T]) do(f func(v *T)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f(&g.v)
}

// stack holds the entities a run's calls make, for the calls that remove
// them (the seeded pool stays whole, so keys keep pointing at live
// entities). An entity goes on it when the call that makes it starts, not when it
// ends, and a delete that takes one waits for its making to end. Calls
// start in the order the schedule made them due, so which entity a
// delete takes, and whether it finds one, follows the schedule rather
// than how fast the machine answered the calls before it.
type stack[T any] struct {
	mu    sync.Mutex
	items []*making[T]
}

// making is an entity a call is making: done closes when the call ends, ok
// says whether it made it.
type making[T any] struct {
	v    T
	done chan struct{}
	ok   bool
}

// start puts v on the stack as being made, and returns what the making
// call calls when it ends, with whether it made v.
func (s *stack[T]) start(v T) func(ok bool) {
	m := &making[T]{v: v, done: make(chan struct{})}
	s.mu.Lock()
	s.items = append(s.items, m)
	s.mu.Unlock()
	return func(ok bool) {
		m.ok = ok
		close(m.done)
	}
}

// pop takes the newest entity and waits for its making to end: false when
// there is none, its making failed, or ctx ended first.
func (s *stack[T]) pop(ctx context.Context) (T, bool) {
	var zero T
	s.mu.Lock()
	if len(s.items) == 0 {
		s.mu.Unlock()
		return zero, false
	}
	m := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	s.mu.Unlock()
	select {
	case <-m.done:
	case <-ctx.Done():
		return zero, false
	}
	if !m.ok {
		return zero, false
	}
	return m.v, true
}

// scanWindow is how many entities past the drawn key a call looks for one
// in the state it needs (a user without a lease, an available account):
// the key's distribution still shapes the traffic, and a call that finds
// none goes ahead on the drawn key and meets the design's own refusal.
const scanWindow = 16

// scan returns the first i of start, start+1, ... (wrapping at n, at most
// scanWindow of them) for which ok holds, else start and false.
func scan(start, n int, ok func(i int) bool) (int, bool) {
	for j := range min(scanWindow, n) {
		if i := (start + j) % n; ok(i) {
			return i, true
		}
	}
	return start, false
}
