package workload

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// Scenario is a load scenario: a weighted mix of one design's patterns, the
// keys they draw, and how the rate moves over time. Scenarios are plain
// values listed in scenarios.All.
type Scenario struct {
	Name     string // "<design>/<name>", e.g. "invoicing/month-end"
	About    string // the question it answers, for people
	Design   designs.Design
	Pool     int // entities seeded before the run; keys are drawn from [0, Pool)
	Pacer    vegeta.Pacer
	Duration time.Duration
	Mix      []Step
	// Driver makes the design's driver for a run, on this table and client.
	Driver func(db designs.DB, table string, seed int64) Driver
	// Warm is the warm throughput the table and each of its GSIs would be
	// created with on real DynamoDB, on demand: the capacity model starts
	// the table there instead of at a new table's 12,000 reads and 4,000
	// writes per second. Zero: not declared.
	Warm Throughput
	// MaxOnDemand is the maximum throughput (OnDemandThroughput) the
	// on-demand table and each of its GSIs would be created with: requests
	// past it are throttled, and growth never takes the table past it.
	// Zero on a side: none.
	MaxOnDemand Throughput
	// SwitchedFrom is the most read and write capacity the table (and each
	// GSI) was provisioned with before it was switched to on-demand: the
	// emulator and the capacity model start it at that throughput, or a
	// new table's where higher, on the partitions it had. The run's table
	// itself is created on demand. Zero: created on demand.
	SwitchedFrom Throughput
	// TransactionHold is how long a transaction of the design holds the
	// items it writes on real DynamoDB, for the conflict limit and the
	// emulator's conflicts (a request's items in flight no longer); a step's
	// own TransactionHold is its pattern's. Zero: the capacity model's
	// measured default (rules.DefaultTransactionHold), never the test
	// bed's latency, which grows with the machine's load.
	TransactionHold time.Duration
	// Thresholds are the gates every run of the scenario must pass, in
	// package threshold's expressions ("p99(AP-03) < 20ms", "wcu(AP-05)
	// <= 4"), beside those bench --threshold adds: one breached makes
	// bench exit 99.
	Thresholds []string
	// RefusalsAsErrors names the patterns whose refusals count as errors
	// (AllPatterns: every one's). By default a refusal (a condition
	// failed, a domain rule said no, a key taken, an item not stored) is
	// an outcome the design expects, counted apart from errors as
	// DynamoDB's metrics count a failed condition; name a pattern here
	// when a refusal of it means the design or the driver went wrong.
	RefusalsAsErrors []designs.PatternID
	// DeclaredPeak is the requests per second of the whole mix at peak
	// that the design's own model declares (an MCP data model's rps of
	// each access pattern, summed): bench forecasts at it when it is given
	// no target rate, and the report sets the first limit against it.
	// Zero: none declared.
	DeclaredPeak float64
}

// Throughput is read and write units per second.
type Throughput struct{ Reads, Writes int64 }

// Validate reports what keeps the engine from running the scenario: a missing
// driver, pacer or duration, a pattern its design does not have, or no
// step with a weight. The error wraps designs.ErrInvalidInput.
func (sc Scenario) Validate() error {
	var problems []error
	if sc.Driver == nil {
		problems = append(problems, errors.New("no Driver"))
	}
	if sc.Pacer == nil {
		problems = append(problems, errors.New("no Pacer"))
	}
	if sc.Duration <= 0 {
		problems = append(problems, errors.New("no Duration"))
	}
	if sc.Warm.Reads < 0 || sc.Warm.Writes < 0 {
		problems = append(problems, fmt.Errorf("Warm %+v: want 0 (not declared) or more units per second", sc.Warm))
	}
	problems = append(problems, sc.checkMaxOnDemand()...)
	if sc.SwitchedFrom != (Throughput{}) {
		if sc.SwitchedFrom.Reads < 0 || sc.SwitchedFrom.Writes < 0 {
			problems = append(problems, fmt.Errorf("SwitchedFrom %+v: want 0 (created on demand) or the capacity units it was provisioned with", sc.SwitchedFrom))
		}
		if sc.Design.Schema.Billing == types.BillingModeProvisioned {
			problems = append(problems, fmt.Errorf("SwitchedFrom %+v on design %s, which is provisioned: a table switched from provisioned is an on-demand one; drop it, or make the design on-demand", sc.SwitchedFrom, sc.Design.Name))
		}
	}
	problems = append(problems, checkHold("TransactionHold", sc.TransactionHold)...)
	if !(sc.DeclaredPeak >= 0) || math.IsInf(sc.DeclaredPeak, 0) {
		problems = append(problems, fmt.Errorf("DeclaredPeak %v: want 0 (none declared) or a finite rate in requests per second", sc.DeclaredPeak))
	}
	for _, t := range sc.Thresholds {
		if _, err := threshold.Parse(t); err != nil {
			problems = append(problems, err)
		}
	}
	problems = append(problems, sc.checkRefusalsAsErrors()...)
	total := 0
	for _, st := range sc.Mix {
		if _, ok := sc.Design.Pattern(st.Pattern); !ok {
			problems = append(problems, fmt.Errorf("pattern %s is not in design %s", st.Pattern, sc.Design.Name))
		}
		problems = append(problems, checkHold(fmt.Sprintf("pattern %s's TransactionHold", st.Pattern), st.TransactionHold)...)
		if st.Weight < 0 {
			problems = append(problems, fmt.Errorf("pattern %s has weight %d", st.Pattern, st.Weight))
		}
		total += st.Weight
	}
	if total <= 0 {
		problems = append(problems, errors.New("no step with a weight above 0"))
	}
	if err := errors.Join(problems...); err != nil {
		return fmt.Errorf("scenario %s: %w: %w", sc.Name, designs.ErrInvalidInput, err)
	}
	return nil
}

// Step is one pattern of a mix: its relative weight, the kind of entity
// its key picks, and the distribution its keys follow (nil: uniform).
type Step struct {
	Pattern designs.PatternID
	Weight  int
	Keys    Dist
	// Entity names the driver's pool the key indexes ("customer",
	// "warehouse"): the key is drawn from [0, that pool's size), so a
	// design's few warehouses and many customers each get the distribution
	// the step names. Empty: the key is drawn from [0, Scenario.Pool).
	Entity string
	// TransactionHold, when set, is how long a transaction of this
	// pattern holds its items on real DynamoDB, in place of the
	// scenario's.
	TransactionHold time.Duration
}

// Pools counts a seeded driver's entities by kind: what the steps' Entity
// names.
type Pools map[string]int

// Pooled is a Driver whose seed makes several kinds of entity. Pools,
// called after Seed, counts each kind; a step that names an Entity gets
// keys in [0, Pools()[Entity]), and Call reads its key as an index into
// that kind's entities.
type Pooled interface {
	Driver
	Pools() Pools
}

// KeySpace is, for each step of sc's mix, how many keys it draws from once
// d has seeded: its Entity's count among d's Pools, else sc.Pool. A step
// naming a pool d does not have, or an empty one, is an error that lists
// the pools d has.
func (sc Scenario) KeySpace(d Driver) ([]int, error) {
	var pools Pools
	if p, ok := d.(Pooled); ok {
		pools = p.Pools()
	}
	out := make([]int, len(sc.Mix))
	var problems []error
	for i, st := range sc.Mix {
		if st.Entity == "" {
			out[i] = max(sc.Pool, 1)
			continue
		}
		n, ok := pools[st.Entity]
		if !ok || n <= 0 {
			problems = append(problems, fmt.Errorf("step %s draws %s keys, but the driver's pools are %s (name one of them in Step.Entity, or have the driver's Pools count %s)",
				st.Pattern, st.Entity, pools, st.Entity))
			continue
		}
		out[i] = n
	}
	if err := errors.Join(problems...); err != nil {
		return nil, fmt.Errorf("scenario %s: %w: %w", sc.Name, designs.ErrInvalidInput, err)
	}
	return out, nil
}

// String lists the pools by name, with their counts.
func (p Pools) String() string {
	if len(p) == 0 {
		return "none (the driver has no Pools method)"
	}
	names := slices.Sorted(maps.Keys(p))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%d)", n, p[n])
	}
	return strings.Join(parts, ", ")
}

// Driver runs one design's patterns for bench. Seed fills the table with
// n entities before the run, through the design's own write patterns on a
// fixtures.Loader, and reports progress as entities done of n: never going
// back, the last report n of n (Loader.Each does exactly that). The same
// seed must write the same items. A read during Seed makes the Loader
// flush first, so a seed keeps what it wrote in its own values instead of
// reading it back. Call runs one pattern on the key-th entity of the
// step's pool (Step.Entity's, else the n seeded), with r for any other
// random choice: r is the call's own, seeded from the run's seed and the
// call's place in the schedule, so the same call draws the same values on
// any machine and no two calls of a run draw alike. Calls come from many
// goroutines at once. The seeding specs (package
// scenarios) check the Seed contract for every design's default scenario.
type Driver interface {
	Seed(ctx context.Context, n int, progress func(done, total int)) error
	Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error
}

// Likely is a Driver that names refusals of its own calls its mix makes
// likely: an imported model's write sends the model's command as written,
// so a call after the first may find its condition no longer holds. The
// specs that call every step (scenario drivers, capacity attribution)
// accept such an error as they accept a design's listed outcomes.
type Likely interface {
	Driver
	Likely(p designs.PatternID, err error) bool
}

// Dist picks a key in [0, n).
type Dist interface {
	Pick(r *rand.Rand, n int) int
	String() string
}

// Uniform spreads keys evenly.
type Uniform struct{}

func (Uniform) Pick(r *rand.Rand, n int) int { return r.IntN(n) }
func (Uniform) String() string               { return "uniform" }

// Hot sends every call to one key: the worst case of a hot partition.
type Hot struct{ Key int }

func (h Hot) Pick(_ *rand.Rand, n int) int { return h.Key % n }
func (h Hot) String() string               { return "hot" }

// Zipf draws key k with probability proportional to 1/(k+1)^S: a few keys
// take most of the traffic, as real customers and products do. S > 1.
type Zipf struct{ S float64 }

// Pick inverts the continuous approximation of the Zipf CDF, so it needs no
// per-n table and no lock: fine for load, not for statistics.
func (z Zipf) Pick(r *rand.Rand, n int) int {
	if n <= 1 {
		return 0
	}
	// CDF(x) ∝ 1 - (x+1)^(1-S) over [0, n); invert at a uniform u.
	s1 := 1 - z.S
	top := 1 - math.Pow(float64(n)+1, s1)
	k := int(math.Pow(1-r.Float64()*top, 1/s1)) - 1
	return min(max(k, 0), n-1)
}

func (z Zipf) String() string { return "zipf" }

// checkMaxOnDemand refuses a maximum throughput AWS would not take: below
// its least, one unit per second (-1, which removes a maximum on
// UpdateTable, is none), not below the on-demand table quota, or on a
// provisioned table, which has none.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html
func (sc Scenario) checkMaxOnDemand() []error {
	m := sc.MaxOnDemand
	if m == (Throughput{}) {
		return nil
	}
	var problems []error
	if m.Reads < 0 || m.Writes < 0 {
		problems = append(problems, fmt.Errorf("MaxOnDemand %+v: want 0 (no maximum) or at least %d unit per second, AWS's least", m, ddbitem.MinOnDemandMax))
	}
	if m.Reads >= ddbitem.OnDemandTableRRU || m.Writes >= ddbitem.OnDemandTableWRU {
		problems = append(problems, fmt.Errorf("MaxOnDemand %+v: want below the on-demand table quota of %d read and %d write units per second, as AWS requires; 0 sets no maximum",
			m, ddbitem.OnDemandTableRRU, ddbitem.OnDemandTableWRU))
	}
	if sc.Design.Schema.Billing == types.BillingModeProvisioned {
		problems = append(problems, fmt.Errorf("MaxOnDemand %+v on design %s, which is provisioned: a maximum throughput is an on-demand table's; drop it, or make the design on-demand", m, sc.Design.Name))
	}
	return problems
}

// MaxTransactionHold bounds a declared transaction hold: a transaction's
// time in flight on DynamoDB is tens of milliseconds, and one of seconds
// is a unit mistake. A bound of this input check, not a DynamoDB figure.
const MaxTransactionHold = 10 * time.Second

// checkHold is what is wrong with hold, a declared transaction hold named
// what.
func checkHold(what string, hold time.Duration) []error {
	if hold < 0 || hold > MaxTransactionHold {
		return []error{fmt.Errorf("%s %s: want 0 (DynamoDB's measured default) or a real DynamoDB transaction's time in flight, up to %s, such as 25ms", what, hold, MaxTransactionHold)}
	}
	return nil
}
