package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// PlotPoints bounds the points of each series of plot.html: vegeta's plot
// downsamples longer runs, keeping their shape.
const PlotPoints = 4000

// WriteResults writes every call of out's results file (none without
// one) as vegeta's gob-encoded Results, the format `vegeta report`,
// `vegeta plot` and `vegeta encode` read: a copy of it.
func WriteResults(w io.Writer, out bench.Outcome) error {
	if out.ResultsFile == "" {
		return nil
	}
	f, err := os.Open(out.ResultsFile)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// WritePlot writes vegeta's interactive latency plot of the run: one
// series per pattern, successes and errors apart. The calls are read from
// the results file one at a time; the plot keeps each as a compressed
// point (a few bytes) until it downsamples them.
func WritePlot(w io.Writer, out bench.Outcome) error {
	p := plot.New(plot.Title(StatusOf(out).Title(out)), plot.Downsample(PlotPoints), plot.Label(outcomeLabel))
	if out.ResultsFile != "" {
		if err := engine.ReadResults(out.ResultsFile, p.Add); err != nil {
			return err
		}
	}
	p.Close()
	_, err := p.WriteTo(w)
	return err
}

// outcomeLabel splits each pattern's series of plot.html into OK,
// REFUSED and ERROR, where vegeta's own labeler would call a refusal,
// which carries its class as an error text, an error.
func outcomeLabel(r *vegeta.Result) string {
	switch {
	case r.Code == engine.StatusRefused:
		return "REFUSED"
	case engine.Failed(r.Code):
		return "ERROR"
	}
	return "OK"
}

// metrics is metrics.json: the run and what became of it, vegeta's
// metrics for the whole mix and per pattern, and the capacity model's
// report.
type metrics struct {
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
	State        string          `json:"state"`
	StoppedWhile string          `json:"stopped_while,omitempty"`
	Failure      *failureJSON    `json:"failure,omitempty"`
	Saturated    *saturatedJSON  `json:"saturated,omitempty"`
	Duration     time.Duration   `json:"duration"`
	Warmup       time.Duration   `json:"warmup"`
	SeedTime     time.Duration   `json:"seed_time"`
	Started      *time.Time      `json:"started"` // null: measuring never began
	Elapsed      time.Duration   `json:"elapsed"`
	Interrupted  bool            `json:"interrupted"`
	Stopped      string          `json:"stopped,omitempty"` // why an abort threshold ended the window early
	Unsent       int             `json:"unsent"`
	CutOff       int             `json:"cut_off"`
	Approx       int64           `json:"approximations"`
	Fidelity     meter.Fidelity  `json:"fidelity"`
	Total        *vegeta.Metrics `json:"total"` // null: nothing measured
	// Refused and Errors count the mix's calls refused and failed: a
	// refusal is an answer (in total's success), not an error. Refusals
	// are the refused calls by pattern and class.
	Refused  uint64              `json:"refused"`
	Errors   uint64              `json:"errors"`
	Refusals []engine.ErrorCount `json:"refusals,omitempty"`
	Patterns []patternJSON       `json:"patterns"`
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
	ThrottlingSources map[string]*capacity.Source `json:"throttling_sources,omitempty"`
	// Thresholds are the run's gates: each with its figure and verdict.
	Thresholds []threshold.Result `json:"thresholds,omitempty"`
	// NonFinite names the figures that were NaN or infinite, written as 0
	// since JSON has no such numbers.
	NonFinite []string `json:"non_finite,omitempty"`
}

// failureJSON is the test bed's failure: when (since measuring began,
// negative before it, and as a time when measuring had begun), what
// happened and the service's last log lines.
type failureJSON struct {
	At     time.Duration `json:"at"`
	Phase  string        `json:"phase,omitempty"`
	Time   *time.Time    `json:"time,omitempty"`
	Reason string        `json:"reason"`
	Logs   string        `json:"logs,omitempty"`
}

// saturatedJSON is the test bed saturating: when (since measuring began),
// at which rate (calls a second) and what was seen.
type saturatedJSON struct {
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

type patternJSON struct {
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
	m := metrics{Scenario: out.Scenario, About: out.About, Design: out.Design, Table: out.Table, Pacer: out.Pacer,
		Pool: out.Pool, Workers: out.Workers, RandomSeed: out.RandomSeed, State: st.State, StoppedWhile: st.Phase,
		Duration: out.Duration, Warmup: out.Warmup, SeedTime: out.SeedTime, Elapsed: out.Elapsed, Interrupted: out.Interrupted, Stopped: out.Stopped,
		Unsent: out.Unsent, CutOff: out.CutOff, Approx: out.Fidelity.Approximations, Fidelity: out.Fidelity, Patterns: []patternJSON{},
		Limits: LimitsText(limitsOf(out)), Throttling: out.Throttling, Thresholds: out.Thresholds}
	if t := out.Throttling; t != nil {
		m.ThrottlingSources = throttlingSources(t.Billing)
	}
	if st.Measured {
		m.Started, m.Total = &out.Started, &out.Total
		m.Refused, m.Errors, m.Refusals = engine.Refused(out.Total), engine.Errored(out.Total), out.Refusals
		for i := range out.Patterns {
			p := &out.Patterns[i]
			m.Patterns = append(m.Patterns, patternJSON{ID: p.ID, Name: p.Name, Op: p.Op, Index: p.Index,
				Weight: p.Weight, Keys: p.Keys, Refused: engine.Refused(p.Metrics), Errors: engine.Errored(p.Metrics), Metrics: &p.Metrics})
		}
	}
	if st.FindingsValid() {
		m.Capacity, m.CapacityCovers = &out.Capacity, st.Healthy
	}
	if f := out.Failure; f != nil {
		m.Failure = &failureJSON{At: f.At, Phase: f.Phase, Reason: strings.TrimSpace(f.Reason), Logs: f.Logs}
		if at := failureTime(out, f); !f.Time.IsZero() || st.Measured {
			m.Failure.Time = &at
		}
	}
	if sat := out.Saturated; sat != nil {
		m.Saturated = &saturatedJSON{At: sat.At, Rate: sat.Rate, Reason: sat.Reason, Backoff: sat.Backoff, Retries: sat.Retries, BackoffShare: sat.BackoffShare}
	}
	clean, nonFinite := finiteCopy(m)
	clean.NonFinite = nonFinite
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(clean)
}

// finiteCopy returns a deep copy of v with every NaN or infinite float
// set to 0, and the paths of those it changed: JSON has no such numbers,
// and one of them must not cost the whole file.
func finiteCopy[T any](v T) (T, []string) {
	var bad []string
	c := finiteValue(reflect.ValueOf(v), "", &bad)
	return c.Interface().(T), bad
}

func finiteValue(v reflect.Value, path string, bad *[]string) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			*bad = append(*bad, strings.TrimPrefix(path, "."))
			out.SetFloat(0)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(finiteValue(v.Elem(), path, bad))
			out.Set(p)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				out.Field(i).Set(finiteValue(v.Field(i), path+"."+f.Name, bad))
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := range v.Len() {
				s.Index(i).Set(finiteValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad))
			}
			out.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(finiteValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad))
		}
	case reflect.Map:
		if !v.IsNil() {
			mp := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				mp.SetMapIndex(it.Key(), finiteValue(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), bad))
			}
			out.Set(mp)
		}
	case reflect.Interface:
		if !v.IsNil() {
			out.Set(finiteValue(v.Elem(), path, bad))
		}
	}
	return out
}
