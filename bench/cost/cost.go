package cost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// Plan is the run to estimate.
type Plan struct {
	Scenario   workload.Scenario
	Duration   time.Duration // measured phase (the scenario's own, or overridden)
	Warmup     time.Duration // unmeasured calls before it, at the pacer's rate
	Rate       float64       // >0: constant rate instead of the pacer
	RandomSeed int64         // the driver's random seed
	Shards     int           // 0 or 1: one machine; n: the estimate is for the whole run (all shards)
}

// Line is one charge of the run: Units of Unit at Price dollars each, as
// listed on the Source page.
type Line struct {
	What    string  // what is charged, for people: "reads: 6,133 calls"
	Units   float64 // how many Units
	Unit    string  // "RRU", "WRU", "RCU-hour", "WCU-hour" or "GB-month"
	Price   float64 // dollars per Unit; 0 for requests a provisioned table's capacity serves
	Dollars float64 // Units × Price
	Source  string  // the pricing page that lists Price
}

// Estimate is what a run would cost: its lines, their Total in dollars,
// and the Basis of the figures, for people.
type Estimate struct {
	Lines []Line
	Total float64 // dollars, the lines' sum
	Basis string  // one line: the prices' source and date, and how the units were estimated
}

// LifecycleAllowance is the time the table exists besides the run's calls:
// creating it, seeding it, and deleting it. A provisioned table pays its
// capacity by the hour over all of it.
const LifecycleAllowance = 10 * time.Minute

// DefaultRandomSeed is the driver's random seed of a Plan that names
// none, as the engine's default (fixtures read 0 as "random", which would
// not repeat).
const DefaultRandomSeed int64 = 1

// ErrUnpaced is a scenario whose pacer sets no rate: its calls cannot be
// counted before the run.
var ErrUnpaced = errors.New("the pacer sets no rate")

// Of estimates what the run p describes would cost on real DynamoDB. A
// pacer with no rate is ErrUnpaced; a plan that could not run wraps
// designs.ErrInvalidInput.
func Of(ctx context.Context, p Plan) (Estimate, error) {
	sc, err := p.scenario()
	if err != nil {
		return Estimate{}, err
	}
	measuring, err := calls(ctx, sc.Pacer, sc.Duration)
	if err != nil {
		return Estimate{}, fmt.Errorf("cost %s: %w", sc.Name, err)
	}
	warm, err := calls(ctx, sc.Pacer, p.Warmup)
	if err != nil {
		return Estimate{}, fmt.Errorf("cost %s: warm-up: %w", sc.Name, err)
	}
	seed := p.RandomSeed
	if seed == 0 {
		seed = DefaultRandomSeed
	}
	f, err := seedFixture(ctx, sc, seed)
	if err != nil {
		return Estimate{}, err
	}
	r := run{name: sc.Name, schema: sc.Design.Schema, measuring: measuring, warmup: warm, pool: sc.Pool,
		shards: max(p.Shards, 1), lifetime: p.Warmup + sc.Duration + LifecycleAllowance, fixture: f}
	if err := r.demand(ctx, sc, seed); err != nil {
		return Estimate{}, err
	}
	return r.estimate()
}

// scenario is the scenario p runs: its duration and pacer as p overrides
// them, checked as the engine checks it.
func (p Plan) scenario() (workload.Scenario, error) {
	sc := p.Scenario
	bad := func(format string, a ...any) error {
		return fmt.Errorf("cost %s: %w: "+format, append([]any{sc.Name, designs.ErrInvalidInput}, a...)...)
	}
	switch {
	case p.Duration < 0 || p.Warmup < 0:
		return sc, bad("duration %s, warm-up %s: want 0 or more", p.Duration, p.Warmup)
	case math.IsNaN(p.Rate) || math.IsInf(p.Rate, 0) || p.Rate < 0:
		return sc, bad("rate %v: want requests per second, or 0 for the scenario's pacer", p.Rate)
	case p.Rate > 0 && math.Round(p.Rate) < 1:
		return sc, bad("rate %v: want whole requests per second, 1 or more", p.Rate)
	case p.Shards < 0:
		return sc, bad("%d shards: want 0 or more", p.Shards)
	}
	if p.Duration > 0 {
		sc.Duration = p.Duration
	}
	if p.Rate > 0 {
		// As the CLI's --rate paces a run: whole calls per second.
		sc.Pacer = vegeta.ConstantPacer{Freq: int(math.Round(p.Rate)), Per: time.Second}
	}
	if err := sc.Validate(); err != nil {
		return sc, fmt.Errorf("cost: %w", err)
	}
	return sc, nil
}

// Write renders the estimate for people: a line per charge with its units,
// unit price and dollars, the total, then the basis.
func (e Estimate) Write(w io.Writer) error {
	return writeTable(w, e)
}
