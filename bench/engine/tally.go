package engine

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Latency percentiles come from an HDR histogram of nanoseconds with 3
// significant digits: the value it gives at a rank is the exact one at
// that rank, rounded up by at most 1/1024 of itself (under 0.1%), and
// exact below 2,048 ns. vegeta's own t-digest gives no such bound. The
// histogram takes about 270 KB whatever the number of calls.
const (
	latencyDigits = 3
	// LatencyCeiling is the longest latency the histogram tells apart; a
	// longer one counts as this long in the percentiles (Max stays exact).
	LatencyCeiling = time.Hour
)

// LatencyError is the bound above, as a share of the exact value.
const LatencyError = 1.0 / 1024

// Tally sums calls as they end, in memory that does not grow with their
// number: vegeta's metrics of the mix and of each pattern, with
// percentiles from an HDR histogram, the failed calls by pattern, status
// and error, and the refused calls by pattern and class.
type Tally struct {
	total   stats
	by      map[string]*stats
	open    bool               // a pattern is tallied from its first call
	errors  map[ErrorCount]int // keyed with Calls 0
	refused map[ErrorCount]int // likewise
}

// ErrorCount is how many calls of a pattern ended with one status and
// class: an error, or a refusal (StatusRefused).
type ErrorCount struct {
	Pattern string `json:"pattern"`
	Code    uint16 `json:"code"`
	Error   string `json:"error"`
	Calls   int    `json:"calls"`
}

// stats is vegeta's metrics of some calls and the histogram of their
// latencies.
type stats struct {
	m vegeta.Metrics
	h *hdrhistogram.Histogram
}

func newStats() *stats {
	return &stats{h: hdrhistogram.New(1, int64(LatencyCeiling), latencyDigits)}
}

func (s *stats) add(r *vegeta.Result) {
	s.m.Add(r)
	_ = s.h.RecordValue(min(max(int64(r.Latency), 0), int64(LatencyCeiling)))
}

// metrics closes a copy of the metrics, its percentiles the histogram's.
// The copy owns its status codes and errors: a live check (StopWhen)
// reads them while the workers add calls to the originals.
func (s *stats) metrics() vegeta.Metrics {
	m := s.m
	m.StatusCodes, m.Errors = maps.Clone(m.StatusCodes), slices.Clone(m.Errors)
	m.Close()
	if s.h.TotalCount() > 0 {
		l := &m.Latencies
		l.P50, l.P90, l.P95, l.P99 = s.at(50, l.Max), s.at(90, l.Max), s.at(95, l.Max), s.at(99, l.Max)
	}
	return m
}

// at is the latency at percentile, at most the exact maximum: the
// histogram rounds up.
func (s *stats) at(percentile float64, most time.Duration) time.Duration {
	return min(time.Duration(s.h.ValueAtPercentile(percentile)), most)
}

// NewTally tallies the calls of the given patterns (vegeta's Attack);
// calls of others count in the mix only.
func NewTally(patterns ...string) *Tally {
	t := &Tally{total: *newStats(), by: map[string]*stats{}, errors: map[ErrorCount]int{}, refused: map[ErrorCount]int{}}
	for _, p := range patterns {
		t.by[p] = newStats()
	}
	return t
}

// NewOpenTally tallies each pattern from its first call, for calls whose
// patterns are not known ahead (the endpoint's operations): a pattern
// takes its histogram's memory only once called.
func NewOpenTally() *Tally {
	t := NewTally()
	t.open = true
	return t
}

// Add counts one call; it is not safe for concurrent use.
func (t *Tally) Add(r *vegeta.Result) {
	t.total.add(r)
	s := t.by[r.Attack]
	if s == nil && t.open {
		s = newStats()
		t.by[r.Attack] = s
	}
	if s != nil {
		s.add(r)
	}
	switch {
	case Failed(r.Code):
		t.errors[ErrorCount{Pattern: r.Attack, Code: r.Code, Error: r.Error}]++
	case r.Code == StatusRefused:
		t.refused[ErrorCount{Pattern: r.Attack, Code: r.Code, Error: r.Error}]++
	}
}

// Failed reports whether a call's status is an error: any outside
// vegeta's successes (2xx and 3xx), which hold the refusals.
func Failed(code uint16) bool { return code < 200 || code >= 400 }

// Refused is how many of m's calls were refused.
func Refused(m vegeta.Metrics) uint64 { return uint64(m.StatusCodes[strconv.Itoa(StatusRefused)]) }

// Errored is how many of m's calls failed.
func Errored(m vegeta.Metrics) uint64 {
	var n uint64
	for code, calls := range m.StatusCodes {
		if c, err := strconv.Atoi(code); err == nil && (c < 200 || c >= 400) {
			n += uint64(calls)
		}
	}
	return n
}

// Requests is how many calls it counted.
func (t *Tally) Requests() uint64 { return t.total.m.Requests }

// Patterns are the patterns tallied, in name order.
func (t *Tally) Patterns() []string { return slices.Sorted(maps.Keys(t.by)) }

// Total is vegeta's metrics of every call, closed.
func (t *Tally) Total() vegeta.Metrics { return t.total.metrics() }

// Pattern is vegeta's metrics of one pattern's calls, closed.
func (t *Tally) Pattern(p string) vegeta.Metrics {
	if s := t.by[p]; s != nil {
		return s.metrics()
	}
	return vegeta.Metrics{}
}

// Errors are the failed calls by pattern, status and error class, in that
// order.
func (t *Tally) Errors() []ErrorCount { return counts(t.errors) }

// Refusals are the refused calls by pattern and class, in that order.
func (t *Tally) Refusals() []ErrorCount { return counts(t.refused) }

func counts(by map[ErrorCount]int) []ErrorCount {
	out := make([]ErrorCount, 0, len(by))
	for e, n := range by {
		e.Calls = n
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b ErrorCount) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Error, b.Error))
	})
	return out
}
