package gate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// Check refuses, before anything runs, a threshold that names a pattern
// sc's mix does not call: it could never be measured.
func Check(ts []threshold.Threshold, sc workload.Scenario) error {
	var mix []string
	for _, st := range sc.Mix {
		mix = append(mix, string(st.Pattern))
	}
	slices.Sort(mix)
	for _, t := range ts {
		if t.Pattern == "" || slices.Contains(mix, t.Pattern) {
			continue
		}
		in := "is not a pattern of design " + sc.Design.Name
		if _, ok := sc.Design.Pattern(designs.PatternID(t.Pattern)); ok {
			in = "is not in its mix"
		}
		return fmt.Errorf("threshold %q: pattern %s %s, which scenario %s runs: name one of %s, or run a scenario that calls it (SCENARIO=)",
			t, t.Pattern, in, sc.Name, strings.Join(mix, ", "))
	}
	return nil
}

// Evaluate measures each threshold on out and says whether it held.
func Evaluate(out bench.Outcome, ts []threshold.Threshold) []threshold.Result {
	rs := make([]threshold.Result, len(ts))
	for i, t := range ts {
		if v, why := Measure(out, t); why != "" {
			rs[i] = t.Unmeasured(why)
		} else {
			rs[i] = t.Evaluate(v)
		}
	}
	return rs
}

// measure is how a threshold metric is measured on a run: on a set of
// calls' own metrics (the mix's or a pattern's), which a run can measure
// while it goes (Live), or on the whole run, needing the capacity model
// when modelled.
type measure struct {
	calls    func(*vegeta.Metrics) float64
	run      func(bench.Outcome, threshold.Threshold) (float64, string)
	modelled bool
}

// measures is how each metric threshold.Metrics names is measured: a
// metric added there is added here, in one row (TestEveryMetricIsMeasured
// holds the two tables together).
var measures = map[string]measure{
	"p50": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.P50 })},
	"p90": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.P90 })},
	"p95": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.P95 })},
	"p99": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.P99 })},
	"avg": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.Mean })},
	"max": {calls: latencyOf(func(l vegeta.LatencyMetrics) time.Duration { return l.Max })},
	// errors, refused and throttled: the share the report shows, and Live
	// checks while the run goes, so that a run a breach stopped never
	// shows the threshold held (the emulator's own count of throttling is
	// of DynamoDB requests, of which a pattern call may make several).
	"errors":    {calls: errorShare},
	"refused":   {calls: refusedShare},
	"throttled": {calls: throttled},
	"conflicts": {run: func(out bench.Outcome, t threshold.Threshold) (float64, string) {
		return conflicts(out, designs.PatternID(t.Pattern))
	}},
	"rcu":      {run: capacityFigure, modelled: true},
	"wcu":      {run: capacityFigure, modelled: true},
	"cost":     {run: capacityFigure, modelled: true},
	"headroom": {run: func(out bench.Outcome, _ threshold.Threshold) (float64, string) { return headroom(out.Capacity) }, modelled: true},
}

// latencyOf measures the latency figure pick picks, in nanoseconds.
func latencyOf(pick func(vegeta.LatencyMetrics) time.Duration) func(*vegeta.Metrics) float64 {
	return func(m *vegeta.Metrics) float64 { return float64(pick(m.Latencies)) }
}

// Measure is the figure t names on out, in threshold's base unit, or why
// out has none.
func Measure(out bench.Outcome, t threshold.Threshold) (float64, string) {
	st := report.StatusOf(out)
	if !st.Measured {
		return 0, "the run stopped before measuring"
	}
	m, ok := measures[t.Metric]
	switch {
	case !ok:
		return 0, "no measure of " + t.Metric
	case m.calls != nil:
		return onCalls(out.Outcome, t, m.calls)
	case m.modelled && !st.FindingsValid():
		return 0, "the capacity model did not run"
	}
	return m.run(out, t)
}

// onCalls is figure of the calls' own metrics, of the mix or of t's
// pattern, or why there is none.
func onCalls(out engine.Outcome, t threshold.Threshold, figure func(*vegeta.Metrics) float64) (float64, string) {
	m := &out.Total
	if t.Pattern != "" {
		i := slices.IndexFunc(out.Patterns, func(p engineMetrics) bool { return p.ID == designs.PatternID(t.Pattern) })
		if i < 0 {
			return 0, t.Pattern + " made no call"
		}
		m = &out.Patterns[i].Metrics
	}
	if m.Requests == 0 {
		return 0, "no call was made"
	}
	return figure(m), ""
}

// throttled is the share of m's calls that ended throttled, after the
// SDK's retries: the share the report shows.
func throttled(m *vegeta.Metrics) float64 {
	if m.Requests == 0 {
		return 0
	}
	return float64(m.StatusCodes[strconv.Itoa(engine.StatusThrottled)]) / float64(m.Requests)
}

// errorShare is the share of m's calls that failed: vegeta's Success
// counts the refusals as answered, so they are not among them.
func errorShare(m *vegeta.Metrics) float64 {
	if m.Requests == 0 {
		return 0
	}
	return 1 - m.Success
}

// refusedShare is the share of m's calls the design refused.
func refusedShare(m *vegeta.Metrics) float64 {
	if m.Requests == 0 {
		return 0
	}
	return float64(engine.Refused(*m)) / float64(m.Requests)
}

// capacityFigure is the units or cost per call t names, of the mix or
// of t's pattern.
func capacityFigure(out bench.Outcome, t threshold.Threshold) (float64, string) {
	c := out.Capacity
	id := designs.PatternID(t.Pattern)
	if t.Pattern == "" {
		switch t.Metric {
		case "rcu":
			return c.Cost.RCUPerRequest, ""
		case "wcu":
			return c.Cost.WCUPerRequest, ""
		}
		return c.Cost.ForBilling(c.Billing), ""
	}
	f, ok := PatternFigures(out)[id]
	if !ok {
		return 0, t.Pattern + " made no call"
	}
	switch t.Metric {
	case "rcu":
		return f.RCU, ""
	case "wcu":
		return f.WCU, ""
	}
	return f.Cost, ""
}

// conflicts is the share of calls the emulated limits saw a transaction
// conflict cancel; with the limits off nothing is emulated, and the share
// is 0.
func conflicts(out bench.Outcome, id designs.PatternID) (float64, string) {
	th := out.Throttling
	if th == nil {
		return 0, ""
	}
	calls, n := th.Calls, th.ConflictCancelled
	if id != "" {
		i := slices.IndexFunc(th.Patterns, func(p patternThrottles) bool { return p.Pattern == id })
		if i < 0 {
			return 0, string(id) + " made no call"
		}
		calls, n = th.Patterns[i].Calls, th.Patterns[i].ConflictCancelled
	}
	if calls == 0 {
		return 0, "no call was made"
	}
	return float64(n) / float64(calls), ""
}

// Live is a check for engine.StopWhen: on the calls ended so far, it
// measures each abort threshold a run can measure while it runs
// (latencies, errors, refusals, throttled calls) and gives the first one breached
// as the reason to stop; nil when ts holds none. Units, cost, headroom
// and conflicts are known once the run is modelled: an abort threshold on
// them stops the scenarios after it.
func Live(ts []threshold.Threshold) func(engine.Outcome) string {
	var live []threshold.Threshold
	for _, t := range ts {
		if t.Abort && measures[t.Metric].calls != nil {
			live = append(live, t)
		}
	}
	if len(live) == 0 {
		return nil
	}
	return func(so engine.Outcome) string {
		for _, t := range live {
			if v, why := onCalls(so, t, measures[t.Metric].calls); why == "" && !t.Holds(v) {
				return fmt.Sprintf("threshold %s breached (%s on the calls ended so far)", t, t.FormatBase(v))
			}
		}
		return ""
	}
}
