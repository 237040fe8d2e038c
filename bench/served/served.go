package served

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddbharness/ddbharness/designs"
)

// Observer counts the attempts and outcomes of the calls made through the
// clients it is installed on. It counts nothing until Enable, so that
// seeding and warm-up stay out of the figures; all methods are safe for
// concurrent use.
type Observer struct {
	on atomic.Bool
	mu sync.Mutex
	t  tally
}

// New returns an observer, off.
func New() *Observer { return &Observer{t: newTally()} }

// Enable counts the calls that start from now on; Disable stops. A call
// is counted, all its attempts included, if it started while enabled.
func (o *Observer) Enable()  { o.on.Store(true) }
func (o *Observer) Disable() { o.on.Store(false) }

// Summary is what the observer has counted so far.
func (o *Observer) Summary() Summary {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.t.summary()
}

// Counts are the calls of a pattern and operation, or of a whole run, and
// their attempts.
type Counts struct {
	Calls int64 `json:"calls"`
	// Attempts counts every request the SDK sent, its retries included.
	Attempts int64 `json:"attempts"`
	// ThrottledAttempts counts the attempts DynamoDB refused for capacity.
	ThrottledAttempts int64 `json:"throttled_attempts"`
	// ThrottledCalls counts the calls whose last attempt was refused for
	// capacity: the SDK gave up, or did not retry (a transaction).
	ThrottledCalls int64 `json:"throttled_calls"`
}

func (c *Counts) add(d Counts) {
	c.Calls += d.Calls
	c.Attempts += d.Attempts
	c.ThrottledAttempts += d.ThrottledAttempts
	c.ThrottledCalls += d.ThrottledCalls
}

// PatternCalls are the counts of one pattern's calls of one operation (a
// pattern may make several, as a read-modify-write does).
type PatternCalls struct {
	// Pattern is "" for calls made outside a pattern.
	Pattern   designs.PatternID `json:"pattern"`
	Operation string            `json:"operation"`
	Counts
}

// Reason is how many times DynamoDB gave one throttling reason. A refused
// attempt names each reason once: an exception's ThrottlingReasons entry
// (Reason and Resource as DynamoDB sent them), or, for a transaction
// cancelled for capacity, the code of each action refused (Reason is
// ThrottlingError or ProvisionedThroughputExceeded; DynamoDB names no
// resource there). An exception that gives no reason counts once, with
// Reason and Resource empty, so that every throttled attempt shows here.
type Reason struct {
	Exception string `json:"exception"`
	Reason    string `json:"reason,omitempty"`
	Resource  string `json:"resource,omitempty"`
	Count     int64  `json:"count"`
}

// Summary is what DynamoDB answered a run's calls.
type Summary struct {
	// Counts are the totals over every pattern and operation.
	Counts
	// Patterns are sorted by pattern, then operation.
	Patterns []PatternCalls `json:"patterns,omitempty"`
	// Reasons are sorted by count, largest first, then exception, reason
	// and resource.
	Reasons []Reason `json:"reasons,omitempty"`
}

// Merge adds summaries up, row by row of the same pattern and operation
// and of the same exception, reason and resource: the summaries of the
// load machines of one run make the run's.
func Merge(ss ...Summary) Summary {
	t := newTally()
	for _, s := range ss {
		for _, p := range s.Patterns {
			t.entry(opKey{p.Pattern, p.Operation}).add(p.Counts)
		}
		for _, r := range s.Reasons {
			t.reasons[reasonKey{r.Exception, r.Reason, r.Resource}] += r.Count
		}
	}
	return t.summary()
}

type opKey struct {
	pattern designs.PatternID
	op      string
}

type reasonKey struct{ exception, reason, resource string }

// tally is what Summary is made from. Guarded by Observer.mu.
type tally struct {
	calls   map[opKey]*Counts
	reasons map[reasonKey]int64
}

func newTally() tally {
	return tally{calls: map[opKey]*Counts{}, reasons: map[reasonKey]int64{}}
}

// entry is k's counts, created at first use.
func (t tally) entry(k opKey) *Counts {
	c := t.calls[k]
	if c == nil {
		c = &Counts{}
		t.calls[k] = c
	}
	return c
}

// summary sorts the rows and totals them: the totals are always the sum of
// the rows, merged or not.
func (t tally) summary() Summary {
	var s Summary
	for k, c := range t.calls {
		s.Patterns = append(s.Patterns, PatternCalls{Pattern: k.pattern, Operation: k.op, Counts: *c})
		s.Counts.add(*c)
	}
	for k, n := range t.reasons {
		s.Reasons = append(s.Reasons, Reason{Exception: k.exception, Reason: k.reason, Resource: k.resource, Count: n})
	}
	slices.SortFunc(s.Patterns, func(a, b PatternCalls) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Operation, b.Operation))
	})
	slices.SortFunc(s.Reasons, func(a, b Reason) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Exception, b.Exception),
			cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Resource, b.Resource))
	})
	return s
}
