package report

import (
	"encoding/json"
	"io"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
)

// PlotPoints bounds the points of each series of plot.html: vegeta's plot
// downsamples longer runs, keeping their shape.
const PlotPoints = 4000

// WriteResults writes every call as vegeta's gob-encoded Results, the
// format `vegeta report`, `vegeta plot` and `vegeta encode` read.
func WriteResults(w io.Writer, out bench.Outcome) error {
	enc := vegeta.NewEncoder(w)
	for i := range out.Results {
		if err := enc.Encode(&out.Results[i]); err != nil {
			return err
		}
	}
	return nil
}

// WritePlot writes vegeta's interactive latency plot of the run: one
// series per pattern, successes and errors apart.
func WritePlot(w io.Writer, out bench.Outcome) error {
	p := plot.New(plot.Title(out.Scenario), plot.Downsample(PlotPoints), plot.Label(plot.ErrorLabeler))
	for i := range out.Results {
		if err := p.Add(&out.Results[i]); err != nil {
			return err
		}
	}
	p.Close()
	_, err := p.WriteTo(w)
	return err
}

// metrics is metrics.json: the run, vegeta's metrics for the whole mix and
// per pattern, and the capacity model's report.
type metrics struct {
	Scenario       string          `json:"scenario"`
	About          string          `json:"about,omitempty"`
	Design         string          `json:"design"`
	Table          string          `json:"table"`
	Pacer          string          `json:"pacer"`
	Pool           int             `json:"pool"`
	Workers        int             `json:"workers"`
	Seed           int64           `json:"seed"`
	Duration       time.Duration   `json:"duration"`
	Warmup         time.Duration   `json:"warmup"`
	SeedTime       time.Duration   `json:"seed_time"`
	Started        time.Time       `json:"started"`
	Elapsed        time.Duration   `json:"elapsed"`
	Interrupted    bool            `json:"interrupted"`
	Unsent         int             `json:"unsent"`
	Approximations int64           `json:"approximations"`
	Fidelity       meter.Fidelity  `json:"fidelity"`
	Total          *vegeta.Metrics `json:"total"`
	Patterns       []patternJSON   `json:"patterns"`
	Capacity       capacity.Report `json:"capacity"`
}

type patternJSON struct {
	ID      designs.PatternID `json:"id"`
	Name    string            `json:"name"`
	Op      designs.Operation `json:"op"`
	Index   string            `json:"index"`
	Weight  int               `json:"weight"`
	Keys    string            `json:"keys"`
	Metrics *vegeta.Metrics   `json:"metrics"`
}

// WriteMetrics writes metrics.json. Durations are nanoseconds, as in
// vegeta's own JSON report.
func WriteMetrics(w io.Writer, out bench.Outcome) error {
	m := metrics{Scenario: out.Scenario, About: out.About, Design: out.Design, Table: out.Table, Pacer: out.Pacer,
		Pool: out.Pool, Workers: out.Workers, Seed: out.Seed, Duration: out.Duration, Warmup: out.Warmup,
		SeedTime: out.SeedTime, Started: out.Started, Elapsed: out.Elapsed, Interrupted: out.Interrupted,
		Unsent: out.Unsent, Approximations: out.Fidelity.Approximations, Fidelity: out.Fidelity, Total: &out.Total, Capacity: out.Capacity,
		Patterns: []patternJSON{}}
	for i := range out.Patterns {
		p := &out.Patterns[i]
		m.Patterns = append(m.Patterns, patternJSON{ID: p.ID, Name: p.Name, Op: p.Op, Index: p.Index,
			Weight: p.Weight, Keys: p.Keys, Metrics: &p.Metrics})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}
