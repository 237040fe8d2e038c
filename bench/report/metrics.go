package report

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// Metrics is metrics.json: the run and what became of it, vegeta's
// metrics for the whole mix and per pattern, and the capacity model's
// report.
type Metrics struct {
	Scenario   string `json:"scenario"`
	About      string `json:"about,omitempty"`
	Design     string `json:"design"`
	Table      string `json:"table"`
	Pacer      string `json:"pacer"`
	Pool       int    `json:"pool"`
	Workers    int    `json:"workers"`
	RandomSeed int64  `json:"seed"`
	// State is complete, interrupted or failed; StoppedWhile says in which
	// phase (seeding, warm-up, measuring) an incomplete run stopped.
	State        string             `json:"state"`
	StoppedWhile string             `json:"stopped_while,omitempty"`
	Failure      *MetricsFailure    `json:"failure,omitempty"`
	Saturated    *MetricsSaturation `json:"saturated,omitempty"`
	Duration     time.Duration      `json:"duration"`
	Warmup       time.Duration      `json:"warmup"`
	SeedTime     time.Duration      `json:"seed_time"`
	Started      *time.Time         `json:"started"` // null: measuring never began
	Elapsed      time.Duration      `json:"elapsed"`
	Interrupted  bool               `json:"interrupted"`
	Stopped      string             `json:"stopped,omitempty"` // why an abort threshold ended the window early
	Unsent       int                `json:"unsent"`
	CutOff       int                `json:"cut_off"`
	Approx       int64              `json:"approximations"`
	Fidelity     meter.Fidelity     `json:"fidelity"`
	Total        *vegeta.Metrics    `json:"total"` // null: nothing measured
	// Refused and Errors count the mix's calls refused and failed: a
	// refusal is an answer (in total's success), not an error. Refusals
	// are the refused calls by pattern and class.
	Refused  uint64              `json:"refused"`
	Errors   uint64              `json:"errors"`
	Refusals []engine.ErrorCount `json:"refusals,omitempty"`
	Patterns []MetricsPattern    `json:"patterns"`
	// CapacityCovers is how much of the measured phase the capacity report
	// covers: all of it, or the healthy part before a failure. Capacity is
	// null when it covers nothing.
	CapacityCovers time.Duration    `json:"capacity_covers"`
	Capacity       *capacity.Report `json:"capacity"`
	// Limits says which limits the run was under; Throttling is what the
	// emulator measured (null with limits off).
	Limits     string              `json:"limits"`
	Throttling *emulate.Throttling `json:"throttling"`
	// ThrottlingSources says what Throttling's forecasts for real
	// DynamoDB rest on, by the field they give.
	ThrottlingSources map[string]*rules.Source `json:"throttling_sources,omitempty"`
	// Thresholds are the run's gates: each with its figure and verdict.
	Thresholds []threshold.Result `json:"thresholds,omitempty"`
	// NonFinite names the figures that were NaN or infinite, written as 0
	// since JSON has no such numbers.
	NonFinite []string `json:"non_finite,omitempty"`
}

// MetricsFailure is the test bed's failure: when (since measuring began,
// negative before it, and as a time when measuring had begun), what
// happened and the service's last log lines.
type MetricsFailure struct {
	At     time.Duration `json:"at"`
	Phase  string        `json:"phase,omitempty"`
	Time   *time.Time    `json:"time,omitempty"`
	Reason string        `json:"reason"`
	Logs   string        `json:"logs,omitempty"`
}

// MetricsSaturation is the test bed saturating: when (since measuring began),
// at which rate (calls a second) and what was seen.
type MetricsSaturation struct {
	At     time.Duration `json:"at"`
	Rate   float64       `json:"rate"`
	Reason string        `json:"reason"`
	// Backoff: the workers were held by the SDK's retry backoff after
	// throttling, not by the test bed; Retries and BackoffShare, under
	// emulated limits, what that was decided on: the SDK's retries over
	// the run, and the share of the workers' time its backoff took then.
	Backoff      bool    `json:"backoff,omitempty"`
	Retries      int64   `json:"retries,omitempty"`
	BackoffShare float64 `json:"backoff_share,omitempty"`
}

// MetricsPattern is one pattern of the mix: what it is, and its calls' metrics.
type MetricsPattern struct {
	ID      designs.PatternID `json:"id"`
	Name    string            `json:"name"`
	Op      designs.Operation `json:"op"`
	Index   string            `json:"index"`
	Weight  int               `json:"weight"`
	Keys    string            `json:"keys"`
	Refused uint64            `json:"refused"` // calls refused, as in metrics' success
	Errors  uint64            `json:"errors"`  // calls failed
	Metrics *vegeta.Metrics   `json:"metrics"`
}

// WriteMetrics writes metrics.json. Durations are nanoseconds, as in
// vegeta's own JSON report.
func WriteMetrics(w io.Writer, out bench.Outcome) error {
	st := StatusOf(out)
	m := Metrics{Scenario: out.Scenario, About: out.About, Design: out.Design, Table: out.Table, Pacer: pacerOf(out),
		Pool: out.Pool, Workers: out.Workers, RandomSeed: out.RandomSeed, State: st.State, StoppedWhile: st.Phase,
		Duration: out.Duration, Warmup: out.Warmup, SeedTime: out.SeedTime, Elapsed: out.Elapsed, Interrupted: out.Interrupted, Stopped: out.Stopped,
		Unsent: out.Unsent, CutOff: out.CutOff, Approx: out.Fidelity.Approximations, Fidelity: out.Fidelity, Patterns: []MetricsPattern{},
		Limits: LimitsText(limitsOf(out)), Throttling: out.Throttling, Thresholds: out.Thresholds}
	if t := out.Throttling; t != nil {
		m.ThrottlingSources = throttlingSources(t.Billing)
	}
	if st.Measured {
		m.Started, m.Total = &out.Started, &out.Total
		m.Refused, m.Errors, m.Refusals = engine.Refused(out.Total), engine.Errored(out.Total), out.Refusals
		for i := range out.Patterns {
			p := &out.Patterns[i]
			m.Patterns = append(m.Patterns, MetricsPattern{ID: p.ID, Name: p.Name, Op: p.Op, Index: p.Index,
				Weight: p.Weight, Keys: keysOf(out, *p), Refused: engine.Refused(p.Metrics), Errors: engine.Errored(p.Metrics), Metrics: &p.Metrics})
		}
	}
	if st.FindingsValid() {
		m.Capacity, m.CapacityCovers = &out.Capacity, st.Healthy
	}
	if f := out.Failure; f != nil {
		m.Failure = &MetricsFailure{At: f.At, Phase: f.Phase, Reason: strings.TrimSpace(f.Reason), Logs: f.Logs}
		if at := failureTime(out, f); !f.Time.IsZero() || st.Measured {
			m.Failure.Time = &at
		}
	}
	if sat := out.Saturated; sat != nil {
		m.Saturated = &MetricsSaturation{At: sat.At, Rate: sat.Rate, Reason: sat.Reason, Backoff: sat.Backoff, Retries: sat.Retries, BackoffShare: sat.BackoffShare}
	}
	clean, nonFinite := finiteCopy(m)
	clean.NonFinite = nonFinite
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(clean)
}

// MaxMetricsBytes bounds the metrics.json ReadMetrics reads: a run's
// keeps its hottest keys, not every key, and takes tens of kilobytes.
const MaxMetricsBytes = 256 << 20

// ReadMetrics reads the metrics.json of the report folder dir, a regular
// file of at most MaxMetricsBytes read within userfile.Read's bounds (it
// returns when ctx ends), as WriteMetrics wrote it, or as an older
// ddbharness did (DecodeMetrics).
func ReadMetrics(ctx context.Context, dir string) (Metrics, error) {
	path := filepath.Join(dir, MetricsFile)
	raw, err := userfile.Read(ctx, path, MaxMetricsBytes)
	if err != nil {
		return Metrics{}, fmt.Errorf("%s: %w (name a bench report folder, like reports/latest)", dir, err)
	}
	m, err := DecodeMetrics(raw)
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// DecodeMetrics decodes metrics.json's text raw.
func DecodeMetrics(raw []byte) (Metrics, error) {
	var m Metrics
	err := json.Unmarshal(raw, &m)
	return m, err
}

// Outcome is the run as far as m keeps it: what it ran and when, its
// metrics, each pattern's, the capacity report and the emulator's
// counts. Started is zero, and Capacity empty, when m has none.
func (m Metrics) Outcome() bench.Outcome {
	var o bench.Outcome
	o.Scenario, o.About, o.Design, o.Table, o.Pacer = m.Scenario, m.About, m.Design, m.Table, m.Pacer
	o.Pool, o.Workers, o.RandomSeed, o.Duration, o.Warmup, o.SeedTime = m.Pool, m.Workers, m.RandomSeed, m.Duration, m.Warmup, m.SeedTime
	o.Elapsed, o.Interrupted, o.Stopped, o.Unsent, o.CutOff = m.Elapsed, m.Interrupted, m.Stopped, m.Unsent, m.CutOff
	o.Fidelity, o.Refusals, o.Throttling, o.Thresholds = m.Fidelity, m.Refusals, m.Throttling, m.Thresholds
	if m.Started != nil {
		o.Started = *m.Started
	}
	if m.Total != nil {
		o.Total = *m.Total
	}
	if m.Capacity != nil {
		o.Capacity = *m.Capacity
	}
	for _, p := range m.Patterns {
		if p.Metrics != nil {
			o.Patterns = append(o.Patterns, engine.PatternMetrics{Pattern: designs.Pattern{ID: p.ID, Name: p.Name, Op: p.Op, Index: p.Index},
				Weight: p.Weight, Keys: p.Keys, Metrics: *p.Metrics})
		}
	}
	return o
}
