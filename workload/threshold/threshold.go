package threshold

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Threshold is one gate: Metric of Pattern (the whole mix when empty)
// compared by Op with Value, written in Unit. Abort stops the bench
// once it is breached.
type Threshold struct {
	Metric  string
	Pattern string
	Op      string
	Value   float64
	Unit    string
	Abort   bool
}

// A metric's kind decides its units and how it is measured.
type kind int

const (
	latency kind = iota // a duration: ns, us, µs, ms, s
	share               // a share of calls: %
	units               // capacity units per call: no unit
	dollars             // US dollars per million calls: $x/M
	factor              // a ratio of rates: x
)

// metrics are the metrics a threshold names, with their kinds: the one
// table of them (the parser, the units and Metrics read it); package gate
// has a row of its own for each, how it is measured on a run.
var metrics = map[string]kind{
	"p50": latency, "p90": latency, "p95": latency, "p99": latency, "avg": latency, "max": latency,
	"errors": share, "refused": share, "throttled": share, "conflicts": share,
	"rcu": units, "wcu": units,
	"cost":     dollars,
	"headroom": factor,
}

// Metrics lists the metrics a threshold may name, sorted.
func Metrics() []string { return slices.Sorted(maps.Keys(metrics)) }

// nanoseconds is each duration unit's length.
var nanoseconds = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}

// ops are the comparisons, longest first so that "<=" is not read as "<".
var ops = []string{"<=", ">=", "==", "<", ">"}

// Latency reports whether t is on latencies: the one kind of figure that
// varies from run to run on an unchanged tree, so the one a rerun may
// settle.
func (t Threshold) Latency() bool { return metrics[t.Metric] == latency }

// Limit is Value in the base unit the figures are measured in:
// nanoseconds, a fraction of calls, units, dollars per million, a factor.
func (t Threshold) Limit() float64 { return t.toBase(t.Value) }

func (t Threshold) toBase(v float64) float64 {
	switch metrics[t.Metric] {
	case latency:
		return v * nanoseconds[t.Unit]
	case share:
		return v / 100
	}
	return v
}

func (t Threshold) fromBase(v float64) float64 {
	switch metrics[t.Metric] {
	case latency:
		return v / nanoseconds[t.Unit]
	case share:
		return v * 100
	}
	return v
}

// Holds reports whether measured, in the base unit, meets t.
func (t Threshold) Holds(measured float64) bool {
	lim := t.Limit()
	switch t.Op {
	case "<":
		return measured < lim
	case "<=":
		return measured <= lim
	case ">":
		return measured > lim
	case ">=":
		return measured >= lim
	}
	return measured == lim
}

// String prints t as Parse reads it back.
func (t Threshold) String() string {
	var b strings.Builder
	b.WriteString(t.Metric)
	if t.Pattern != "" {
		b.WriteString("(" + t.Pattern + ")")
	}
	b.WriteString(" " + t.Op + " " + t.Format(t.Value))
	if t.Abort {
		b.WriteString(" abort")
	}
	return b.String()
}

// Format writes v, in t's unit, as t's value is written.
func (t Threshold) Format(v float64) string {
	n := strconv.FormatFloat(v, 'f', -1, 64)
	if metrics[t.Metric] == dollars {
		return "$" + n + "/M"
	}
	return n + t.Unit
}

// FormatBase writes a figure measured in the base unit in t's unit,
// rounded for people: three significant digits.
func (t Threshold) FormatBase(measured float64) string {
	v := t.fromBase(measured)
	n := strconv.FormatFloat(v, 'g', 3, 64)
	if strings.ContainsAny(n, "e") {
		n = strconv.FormatFloat(v, 'f', -1, 64)
	}
	if metrics[t.Metric] == dollars {
		return "$" + n + "/M"
	}
	return n + t.Unit
}

// Result is a threshold evaluated on a run: the figure measured (in its
// unit, and as text), whether it held, and a note when nothing could be
// measured or the threshold was evaluated again on a rerun.
type Result struct {
	Threshold string  `json:"threshold"`
	Pass      bool    `json:"pass"`
	Measured  float64 `json:"measured"`
	Text      string  `json:"measured_text"`
	Abort     bool    `json:"abort,omitempty"`
	Note      string  `json:"note,omitempty"`
	Retried   bool    `json:"retried,omitempty"`
}

// Evaluate is t's result on a figure measured in the base unit.
func (t Threshold) Evaluate(measured float64) Result {
	return Result{Threshold: t.String(), Pass: t.Holds(measured), Measured: t.fromBase(measured), Text: t.FormatBase(measured), Abort: t.Abort}
}

// Unmeasured is t's result when the run has no figure for it (the pattern
// made no call, nothing was forecast): a gate that cannot be checked
// fails, and the note says why.
func (t Threshold) Unmeasured(why string) Result {
	return Result{Threshold: t.String(), Text: "not measured", Note: why, Abort: t.Abort}
}

// Mark is ✓ for a threshold that held, ✗ for one breached.
func (r Result) Mark() string {
	if r.Pass {
		return "✓"
	}
	return "✗"
}

// Line is the result as one line for people: mark, threshold, figure.
func (r Result) Line() string {
	s := fmt.Sprintf("%s %s: %s", r.Mark(), r.Threshold, r.Text)
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}

// Breached reports whether any result failed.
func Breached(rs []Result) bool {
	for _, r := range rs {
		if !r.Pass {
			return true
		}
	}
	return false
}
