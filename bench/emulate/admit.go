package emulate

import (
	"time"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/pricing"
)

// touch is one partition a request reads from or writes to: the table or
// a GSI (target, as pricing.Charge names it), and the partition key value
// there; "" for a Scan, which only the budget admits.
type touch struct {
	table  string
	target string
	key    string
	side   int
	// units is what the request would consume there, priced before the
	// call (predict.go); 0 when unknown.
	units float64
}

// refusal is why a request was throttled: the partition or budget that
// had nothing left.
type refusal struct {
	space *space
	part  int // -1: the table's or GSI's budget
	key   string
	side  int
	// reason and exception are what DynamoDB answers.
	reason, exception string
	budget            string // a budget's refusal: its kind (BudgetProvisioned, BudgetWarm, BudgetMax, BudgetQuota)
}

// Exceptions DynamoDB throttles with: a provisioned table's or GSI's
// refusals (its provisioned throughput, a key range) answer
// ProvisionedThroughputExceededException; an on-demand one's (a key range,
// its maximum throughput) ThrottlingException, as public captures of the
// on-demand message show it (for one,
// https://github.com/praetorian-inc/chariot-ui/issues/684); the account's
// per-table quota RequestLimitExceeded.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
// (each exception with the reasons it carries)
const (
	ExceptionProvisioned  = "ProvisionedThroughputExceededException"
	ExceptionThrottling   = "ThrottlingException"
	ExceptionRequestLimit = "RequestLimitExceeded"
)

// admit decides one attempt of a request that touches ts: nil when every
// partition and budget it touches has units left. Call with e.mu held.
func (e *Emulator) admit(ts []touch, now int64) *refusal {
	for _, tc := range ts {
		s := e.tableOf(tc.table, now).space(tc.target)
		i, ok := s.Admit(tc.key, tc.side, now)
		if ok {
			continue
		}
		if i < 0 {
			return e.budgetRefusal(s, tc, now)
		}
		return &refusal{space: s, part: i, key: tc.key, side: tc.side,
			reason: reason(s, tc.side, throughput.KeyRange), exception: keyRangeException(s)}
	}
	return nil
}

// estimate is what a call of tc lately consumed on its value, 0 when
// unknown (the engine then takes what a call on s lately consumed).
func (e *Emulator) estimate(s *space, tc touch) float64 {
	k, ok := e.names.Lookup(tc.key)
	if !ok {
		return 0
	}
	ests, _ := e.estimates.Get(keySlot{s.id, k})
	return ests[tc.side]
}

// reserve holds, on each partition and budget an admitted request
// touches, what it would consume there, priced from the request (else
// what a call there consumed lately): calls in flight together
// then see each other, as DynamoDB, which knows a write's size when it
// admits it, sees them, instead of all passing a partition with a unit
// left. The reservation is given back when the call ends (end), just
// before its real charge is debited. Call with e.mu held.
func (e *Emulator) reserve(ts []touch, now int64, held []reservation) []reservation {
	for _, tc := range ts {
		s := e.tableOf(tc.table, now).space(tc.target)
		est, _ := e.demand(s, tc)
		if est == 0 {
			continue
		}
		held = append(held, reservation{space: s, part: s.Hold(tc.key, tc.side, now, est), side: tc.side, units: est})
	}
	return held
}

// reservation is units held for a call in flight.
type reservation struct {
	space *space
	part  int
	side  int
	units float64
}

// end gives back a call's reservations, just before its charge is
// debited, and counts its outcome.
func (e *Emulator) end(c *call) {
	e.mu.Lock()
	now := e.now() // under the lock: calls reach the engine in time order
	defer e.mu.Unlock()
	e.m.ended(e, c, now)
	for _, r := range c.held {
		r.space.Release(r.part, r.side, now, r.units)
	}
}

// estimateWeight is how much the latest charge moves a value's estimate.
const estimateWeight = 0.25

// learn follows what calls consume on a value, for reserve.
func (e *Emulator) learn(k keySlot, u [2]float64) {
	e.estimates.Update(k, func(est [2]float64, _ bool) [2]float64 {
		for side := range 2 {
			if u[side] > 0 {
				if est[side] == 0 {
					est[side] = u[side]
				} else {
					est[side] += estimateWeight * (u[side] - est[side])
				}
			}
		}
		return est
	})
}

// budgetRefusal is a refusal by the whole table's or GSI's budget: its
// provisioned throughput, or an on-demand table's maximum throughput,
// quota or allowance (its warm throughput or twice its settled peak, which
// AWS reports as the key range's; inferred).
func (e *Emulator) budgetRefusal(s *space, tc touch, now int64) *refusal {
	r := &refusal{space: s, part: -1, key: tc.key, side: tc.side}
	switch {
	case !s.OnDemand():
		r.reason, r.exception, r.budget = reason(s, tc.side, throughput.Provisioned), ExceptionProvisioned, BudgetProvisioned
	case s.OverMax(tc.side, now):
		r.reason, r.exception, r.budget = reason(s, tc.side, throughput.MaxOnDemand), ExceptionThrottling, BudgetMax
	case s.AtQuota(tc.side):
		r.reason, r.exception, r.budget = reason(s, tc.side, throughput.AccountLimit), ExceptionRequestLimit, BudgetQuota
	default:
		r.reason, r.exception, r.budget = reason(s, tc.side, throughput.KeyRange), ExceptionThrottling, BudgetWarm
	}
	return r
}

// keyRangeException is what a partition of s refusing answers: the
// exception of its billing mode.
func keyRangeException(s *space) string {
	if s.OnDemand() {
		return ExceptionThrottling
	}
	return ExceptionProvisioned
}

// reason names a throttling reason of s as DynamoDB does
// (throughput.Reason, which the capacity model names its limits with).
func reason(s *space, side int, limit string) string {
	return throughput.Reason(s.index, side, limit)
}

// Debit takes what a completed call on table name consumed, as
// pricing.Account charged it, from the partitions and budgets it touched.
func (e *Emulator) Debit(name string, charges []pricing.Charge) {
	if !e.on.Load() || len(charges) == 0 {
		return
	}
	e.mu.Lock()
	now := e.now() // under the lock: calls reach the engine in time order
	defer e.mu.Unlock()
	t := e.tableOf(name, now)
	// An LSI's charges land in its table's partitions: one call, one
	// charge per partition key value there.
	type spent struct {
		s   *space
		key string
		u   [2]float64
	}
	merged := make([]spent, 0, len(charges))
next:
	for _, c := range charges {
		s, u := t.space(c.Target), [2]float64{c.RCU, c.WCU}
		for i := range merged {
			if merged[i].s == s && merged[i].key == c.Key {
				merged[i].u[read] += u[read]
				merged[i].u[write] += u[write]
				continue next
			}
		}
		merged = append(merged, spent{s, c.Key, u})
	}
	for _, m := range merged {
		i := m.s.consume(e, now, m.key, m.u)
		id := keySlot{m.s.id, e.names.ID(m.key)}
		if i >= 0 { // key "" is the budget's alone
			e.m.consumed(m.s, i, id.key, now, m.u)
		}
		e.learn(id, m.u)
	}
}

// second is the Unix second of now.
func second(now int64) int64 { return now / int64(time.Second) }
