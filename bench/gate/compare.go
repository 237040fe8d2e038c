package gate

import (
	"context"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
)

// Alpha is the p-value above which a latency change is not significant
// ("~", as benchstat writes it).
const Alpha = 0.05

// Run is a report folder read back: its outcome as far as metrics.json
// keeps it, and each pattern's latencies from results.bin.
type Run struct {
	Dir       string
	Out       bench.Outcome
	Latencies map[designs.PatternID][]float64
}

// ReadRun reads the report folder dir: its metrics.json
// (report.ReadMetrics), and the calls of its results.bin, a regular file
// too. It stops when ctx ends.
func ReadRun(ctx context.Context, dir string) (Run, error) {
	r := Run{Dir: dir, Latencies: map[designs.PatternID][]float64{}}
	m, err := report.ReadMetrics(ctx, dir)
	if err != nil {
		return r, err
	}
	if m.Started == nil || m.Total == nil || m.Capacity == nil {
		return r, fmt.Errorf("%s: the run measured nothing, or its capacity model did not run: nothing to compare", dir)
	}
	r.Out = m.Outcome()
	err = engine.ReadResults(filepath.Join(dir, report.ResultsFile), func(res *vegeta.Result) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := designs.PatternID(res.Attack)
		r.Latencies[id] = append(r.Latencies[id], float64(res.Latency))
		return nil
	})
	return r, err
}

// Row is one figure of one pattern (or of the mix, Pattern "mix") in both
// runs. Change is the relative change, +Inf from 0; P is the
// Mann–Whitney p-value of a latency, NaN for other figures.
type Row struct {
	Pattern   string
	Figure    string
	Base, New float64
	Change    float64
	P         float64
	// Up is whether a rise is a regression (units, cost, latency,
	// throttling); throughput and headroom regress when they fall.
	Up bool
}

// Regression is how much worse the figure got, relative (0 when it did
// not); a latency change that is not significant is none.
func (r Row) Regression() float64 {
	if !math.IsNaN(r.P) && r.P > Alpha {
		return 0
	}
	if r.Up {
		return max(r.Change, 0)
	}
	return max(-r.Change, 0)
}

// Compare sets base and next side by side, pattern by pattern, then the
// mix's own figures.
func Compare(base, next Run) []Row {
	fb, fn := PatternFigures(base.Out), PatternFigures(next.Out)
	ids := slices.Sorted(maps.Keys(fb))
	for id := range fn {
		if _, ok := fb[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var rows []Row
	add := func(pattern, figure string, b, n float64, up bool) {
		rows = append(rows, Row{Pattern: pattern, Figure: figure, Base: b, New: n, Change: change(b, n), P: math.NaN(), Up: up})
	}
	for _, id := range ids {
		b, n := fb[id], fn[id]
		add(string(id), "rcu", b.RCU, n.RCU, true)
		add(string(id), "wcu", b.WCU, n.WCU, true)
		add(string(id), "cost", b.Cost, n.Cost, true)
		add(string(id), "bytes", b.Bytes, n.Bytes, true)
		lb, ln := metricsOf(base.Out, id), metricsOf(next.Out, id)
		p := MannWhitney(base.Latencies[id], next.Latencies[id])
		for _, q := range []struct {
			name string
			b, n time.Duration
		}{{"p50", lb.Latencies.P50, ln.Latencies.P50}, {"p99", lb.Latencies.P99, ln.Latencies.P99}} {
			add(string(id), q.name, float64(q.b), float64(q.n), true)
			rows[len(rows)-1].P = p
		}
		add(string(id), "throughput", lb.Throughput, ln.Throughput, false)
		add(string(id), "throttled", throttled(&lb), throttled(&ln), true)
		sb, _ := conflicts(base.Out, id)
		sn, _ := conflicts(next.Out, id)
		add(string(id), "conflicts", sb, sn, true)
		add(string(id), "refused", refusedShare(&lb), refusedShare(&ln), true)
	}
	cb, cn := base.Out.Capacity, next.Out.Capacity
	hb, _ := headroom(cb)
	hn, _ := headroom(cn)
	add("mix", "headroom", hb, hn, false)
	add("mix", "cost", cb.Cost.ForBilling(cb.Billing), cn.Cost.ForBilling(cn.Billing), true)
	add("mix", "throughput", base.Out.Total.Throughput, next.Out.Total.Throughput, false)
	add("mix", "errors", errorShare(&base.Out.Total), errorShare(&next.Out.Total), true)
	add("mix", "refused", refusedShare(&base.Out.Total), refusedShare(&next.Out.Total), true)
	return rows
}

func metricsOf(out bench.Outcome, id designs.PatternID) vegeta.Metrics {
	for _, p := range out.Patterns {
		if p.ID == id {
			return p.Metrics
		}
	}
	return vegeta.Metrics{}
}

func change(b, n float64) float64 {
	switch {
	case b == n:
		return 0
	case b == 0:
		return math.Inf(int(math.Copysign(1, n)))
	}
	return (n - b) / math.Abs(b)
}

// Format writes a row's value for people, in the figure's unit.
func (r Row) Format(v float64) string {
	switch r.Figure {
	case "p50", "p99":
		return engine.Latency(time.Duration(v).Round(10 * time.Microsecond))
	case "throttled", "conflicts", "errors", "refused":
		return strconv.FormatFloat(100*v, 'g', 3, 64) + "%"
	case "cost":
		return "$" + strconv.FormatFloat(v, 'g', 4, 64) + "/M"
	case "headroom":
		return strconv.FormatFloat(v, 'g', 3, 64) + "x"
	case "throughput":
		return strconv.FormatFloat(v, 'f', 1, 64) + "/s"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// ChangeText is the change as benchstat writes it: "=" for none, "~" for
// a latency change that is not significant, else a signed percentage.
func (r Row) ChangeText() string {
	switch {
	case r.Change == 0:
		return "="
	case !math.IsNaN(r.P) && r.P > Alpha:
		return fmt.Sprintf("~ (p=%.2f)", r.P)
	case math.IsInf(r.Change, 0):
		return "new"
	}
	s := fmt.Sprintf("%+.1f%%", 100*r.Change)
	if !math.IsNaN(r.P) {
		s += fmt.Sprintf(" (p=%.3f)", r.P)
	}
	return s
}

// FailOn is a --fail-on rule: Figure regressed by more than Percent.
type FailOn struct {
	Figure  string
	Percent float64
}

// figures are the figures a rule may name.
var figures = []string{"rcu", "wcu", "cost", "bytes", "p50", "p99", "throughput", "throttled", "conflicts", "headroom", "errors", "refused"}

// ParseFailOn reads rules like "wcu>0%,p99>20%".
func ParseFailOn(s string) ([]FailOn, error) {
	var out []FailOn
	for part := range strings.SplitSeq(s, ",") {
		part = strings.ReplaceAll(strings.TrimSpace(part), " ", "")
		if part == "" {
			continue
		}
		fig, pct, ok := strings.Cut(part, ">")
		v, err := strconv.ParseFloat(strings.TrimSuffix(pct, "%"), 64)
		if !ok || !strings.HasSuffix(pct, "%") || err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || !slices.Contains(figures, fig) {
			return nil, fmt.Errorf("--fail-on %q: want FIGURE>N%% (a regression of more than N percent), like wcu>0%% or p99>20%%, FIGURE one of %s", part, strings.Join(figures, ", "))
		}
		out = append(out, FailOn{fig, v})
	}
	return out, nil
}

// Breaches lists the rows a rule fails.
func Breaches(rows []Row, rules []FailOn) []string {
	var out []string
	for _, r := range rows {
		for _, f := range rules {
			if r.Figure == f.Figure && r.Regression() > f.Percent/100 {
				out = append(out, fmt.Sprintf("%s %s: %s → %s (%s), over --fail-on %s>%g%%", r.Pattern, r.Figure, r.Format(r.Base), r.Format(r.New), r.ChangeText(), f.Figure, f.Percent))
			}
		}
	}
	return out
}
