package gate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// BaselineFormat names the baseline file's layout.
const BaselineFormat = "ddbharness-baseline/1"

// A figure counts as changed when it moved by more than Tolerance of the
// baseline's value plus a slack of its own. The figures are sums of item
// sizes by AWS's rules, but not the same on every run of an unchanged
// tree: the drivers stamp live items with the clock (fixtures.Live), and
// concurrent writes of one item land in either order. Three runs of
// every default scenario (limits off, 2 s) differed by up to 7% in a
// pattern's units per call (0.15 units) and up to 220 bytes in growth per
// call, and one run beside two busy loops by 12% (services' AP-07, a
// Query whose partition the run's own writes grow: how many writes come
// before each read follows the machine); the tolerance covers that with
// room, and still sees an item widened by a kilobyte (+50% of a write).
// A first limit (BaselineLimit) is gated by the same tolerance, with no
// slack.
const (
	Tolerance  = 0.20
	unitsSlack = 0.05 // capacity units per call
	costSlack  = unitsSlack * rules.PricePerMillionWRU
	bytesSlack = 512 // bytes per call
)

// Baseline is each scenario's Figures per pattern, as make bench-baseline
// wrote them with the limits off.
type Baseline struct {
	Format    string                                   `json:"format"`
	Note      string                                   `json:"note"`
	Scenarios map[string]map[designs.PatternID]Figures `json:"scenarios"`
	// Pools is how many entities each scenario seeded: some figures follow
	// it (an item that lists every entity grows with the pool), so a run
	// is compared only with a baseline of its own pool.
	Pools map[string]int `json:"pools,omitempty"`
	// FirstLimits is each scenario's first limit (BaselineLimit).
	FirstLimits map[string]BaselineLimit `json:"first_limits,omitempty"`
}

// Add records out's figures as its scenario's.
func (b *Baseline) Add(out bench.Outcome) {
	if b.Scenarios == nil {
		b.Scenarios = map[string]map[designs.PatternID]Figures{}
	}
	figs := PatternFigures(out)
	for id, f := range figs {
		f.Calls, f.Served = 0, 0 // the schedule's, not the design's: left out of the file
		figs[id] = f
	}
	b.Scenarios[out.Scenario] = figs
	if b.Pools == nil {
		b.Pools = map[string]int{}
	}
	b.Pools[out.Scenario] = out.Pool
	if l, ok := baselineLimit(out); ok {
		if b.FirstLimits == nil {
			b.FirstLimits = map[string]BaselineLimit{}
		}
		b.FirstLimits[out.Scenario] = l
	}
}

// WriteBaseline writes b to path, whole or not at all.
func WriteBaseline(path string, b Baseline) error {
	b.Format = BaselineFormat
	b.Note = "Figures per call of each default scenario's patterns, computed from item sizes by AWS's rules with the limits off: written by make bench-baseline, checked by make bench-check within the tolerance bench/gate/baseline.go states."
	raw, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return userfile.Write(path, append(raw, '\n'), 0o644)
}

// MaxBaselineBytes bounds the baseline file ReadBaseline reads: every
// default scenario's figures take a few kilobytes.
const MaxBaselineBytes = 16 << 20

// maxFigure bounds a baseline's figures (inferred: no run measures it):
// a billion units, dollars or bytes per call, while the largest figure
// of bench/baseline.json is 100 units. A larger one, such as 1e308, would
// read every run as an improvement, gating nothing.
const maxFigure = 1e9

// ReadBaseline reads a baseline file: a regular file of at most
// MaxBaselineBytes, read within userfile.Read's bounds (it returns when
// ctx ends), that holds figures a run could have written (Check).
func ReadBaseline(ctx context.Context, path string) (Baseline, error) {
	var b Baseline
	raw, err := userfile.Read(ctx, path, MaxBaselineBytes)
	if err != nil {
		return b, fmt.Errorf("baseline: %w (make bench-baseline writes it)", err)
	}
	if err := json.Unmarshal(raw, &b); err != nil || b.Format != BaselineFormat {
		return b, fmt.Errorf("baseline %s: not a %s file (%v): write it again with make bench-baseline", path, BaselineFormat, err)
	}
	if err := b.Check(); err != nil {
		return b, fmt.Errorf("baseline %s: %w: write it again with make bench-baseline", path, err)
	}
	return b, nil
}

// Check refuses a baseline that would gate nothing, or less than it says:
// no scenario, a scenario without its pool (a run on any pool would be
// compared), or a figure that is not a finite number within maxFigure (a
// run could never exceed it), units and cost below 0.
func (b Baseline) Check() error {
	if len(b.Scenarios) == 0 {
		return errors.New("it holds no scenario, so it checks nothing")
	}
	for _, sc := range slices.Sorted(maps.Keys(b.Scenarios)) {
		if pool, ok := b.Pools[sc]; !ok || pool < 0 {
			return fmt.Errorf("pools has no pool for %s, so a run on any pool would be compared with it", sc)
		}
		for _, id := range slices.Sorted(maps.Keys(b.Scenarios[sc])) {
			f := b.Scenarios[sc][id]
			for _, fig := range []struct {
				name   string
				v      float64
				signed bool
			}{{"rcu_per_call", f.RCU, false}, {"wcu_per_call", f.WCU, false}, {"cost_per_million", f.Cost, false}, {"bytes_grown_per_call", f.Bytes, true}} {
				if math.IsNaN(fig.v) || math.Abs(fig.v) > maxFigure || fig.v < 0 && !fig.signed {
					return fmt.Errorf("%s %s: %s is %v, which no run measures (0 to %g)", sc, id, fig.name, fig.v, float64(maxFigure))
				}
			}
		}
	}
	return nil
}

// Holds refuses a run of scenario on pool entities that the baseline
// cannot be compared with: before the run, so that it is not made for
// nothing, and again on its outcome (Compare).
func (b Baseline) Holds(scenario string, pool int) error {
	if _, ok := b.Scenarios[scenario]; !ok {
		return fmt.Errorf("baseline has no scenario %s: write it again with make bench-baseline", scenario)
	}
	if want := b.Pools[scenario]; want != pool {
		return fmt.Errorf("baseline of %s was written on %d entities, this run seeds %d: run with --pool %d, as make bench-check does, or write the baseline again", scenario, want, pool, want)
	}
	return nil
}

// Change is one figure of one pattern that moved from the baseline.
type Change struct {
	Scenario  string
	Pattern   designs.PatternID
	Figure    string
	Base, Now float64
	Limits    [2]string // a first limit's change: the baseline's and the run's, in words
}

// Worse reports whether the change costs more (every figure is one that
// a design wants lower), or the mix changed under the baseline.
func (c Change) Worse() bool {
	if c.Figure == firstLimitFigure {
		return c.Now > 0 && c.Now < c.Base // sooner; none reached is later
	}
	return c.Now > c.Base || c.Figure == "calls"
}

func (c Change) String() string {
	switch {
	case c.Figure == firstLimitFigure:
		return c.limitString()
	case c.Figure == "calls" && c.Now == 0:
		return fmt.Sprintf("%s %s: in the baseline, but made no call in this run", c.Scenario, c.Pattern)
	case c.Figure == "calls":
		return fmt.Sprintf("%s %s: made calls, but is not in the baseline", c.Scenario, c.Pattern)
	}
	return fmt.Sprintf("%s %s: %s %s → %s (%+.1f%%)", c.Scenario, c.Pattern, c.Figure, num(c.Base), num(c.Now), 100*(c.Now-c.Base)/max(math.Abs(c.Base), 1e-12))
}

func num(v float64) string { return fmt.Sprintf("%.6g", v) }

// Compare lists every figure of out that moved from the baseline, and
// the patterns the baseline or the run lacks (Figure "calls": made no
// call in one of them).
func (b Baseline) Compare(out bench.Outcome) ([]Change, error) {
	if err := b.Holds(out.Scenario, out.Pool); err != nil {
		return nil, err
	}
	base := b.Scenarios[out.Scenario]
	now := PatternFigures(out)
	var cs []Change
	for _, id := range slices.Sorted(maps.Keys(base)) {
		f, ok := now[id]
		if !ok {
			cs = append(cs, Change{Scenario: out.Scenario, Pattern: id, Figure: "calls", Base: 1})
			continue
		}
		was := base[id]
		for _, fig := range []struct {
			name      string
			base, now float64
			slack     float64
		}{{"rcu per call", was.RCU, f.RCU, unitsSlack}, {"wcu per call", was.WCU, f.WCU, unitsSlack},
			{"cost per million", was.Cost, f.Cost, costSlack}, {"bytes grown per call", was.Bytes, f.Bytes, bytesSlack}} {
			if moved(fig.base, fig.now, fig.slack) {
				cs = append(cs, Change{Scenario: out.Scenario, Pattern: id, Figure: fig.name, Base: fig.base, Now: fig.now})
			}
		}
	}
	for id := range now {
		if _, ok := base[id]; !ok {
			cs = append(cs, Change{Scenario: out.Scenario, Pattern: id, Figure: "calls", Now: 1})
		}
	}
	if was, ok := b.FirstLimits[out.Scenario]; ok {
		if c, moved := compareLimit(was, out); moved {
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Figure, b.Figure))
	})
	return cs, nil
}

func moved(base, now, slack float64) bool {
	return math.Abs(now-base) > Tolerance*math.Abs(base)+slack
}
