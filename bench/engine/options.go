package engine

import (
	"io"
	"os"
	"time"
)

// Defaults of Run's options.
const (
	// DefaultWorkers bounds the calls in flight. Open-loop pacing needs only
	// rate × latency of them; the rest absorb a stalling server, whose delay
	// still counts from each call's intended time.
	DefaultWorkers = 64
	// DefaultWarmup runs the mix, unmeasured, before measuring: a young JVM
	// and a cold connection pool would otherwise weigh on the first seconds.
	DefaultWarmup = 3 * time.Second
	// DefaultRandomSeed makes runs repeatable: the same seed draws the same
	// patterns and keys in the same order, and seeds the same entities.
	DefaultRandomSeed int64 = 1
	// DefaultDrain is how long calls already due when the run ends may
	// still finish; those not started by then are recorded as not sent.
	DefaultDrain = 10 * time.Second
	// DefaultBacklog is how many due calls may wait for a free worker before
	// the pacer itself waits (and then catches up, with due times intact).
	DefaultBacklog = 1 << 14
)

// Option changes how Run runs a scenario.
type Option func(*config)

type config struct {
	workers    int
	warmup     time.Duration
	seed       int64
	progress   io.Writer
	targetRate float64
	drain      time.Duration
	measurer   Measurer
	watch      <-chan struct{}
	watchCause func() error
	shard      ShardSpec
	minCalls   int
	stopWhen   func(Outcome) string
	keep       bool
	results    string // the results file's path
	remote     bool   // the endpoint is off this machine
}

func newConfig(opts []Option) config {
	c := config{workers: DefaultWorkers, warmup: DefaultWarmup, seed: DefaultRandomSeed, progress: os.Stderr, drain: DefaultDrain, shard: ShardSpec{I: 1, N: 1}}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Workers bounds the calls in flight (default DefaultWorkers). Give the SDK
// client at least as many idle connections per host.
func Workers(n int) Option { return func(c *config) { c.workers = n } }

// Warmup sets how long the mix runs unmeasured first (default
// DefaultWarmup; 0 skips it).
func Warmup(d time.Duration) Option { return func(c *config) { c.warmup = d } }

// RandomSeed sets the seed of the run's random choices and of the seeded data
// (default DefaultRandomSeed).
func RandomSeed(n int64) Option { return func(c *config) { c.seed = n } }

// Progress sends the progress lines to w (default os.Stderr; io.Discard
// silences them).
func Progress(w io.Writer) Option { return func(c *config) { c.progress = w } }

// TargetRate is the rate, in requests per second of the mix, the report
// forecasts at (default 0: no forecast); the engine carries it in the
// Outcome.
func TargetRate(r float64) Option { return func(c *config) { c.targetRate = r } }

// Drain sets how long due calls may still finish after the run's duration
// (default DefaultDrain).
func Drain(d time.Duration) Option { return func(c *config) { c.drain = d } }

// Measured has m measure the run's calls beyond their latency (default:
// none, the driver calls db as it is).
func Measured(m Measurer) Option { return func(c *config) { c.measurer = m } }

// ResultsTo writes each measured call to a new file at path as it ends,
// in vegeta's format (default: calls are only tallied). The file is
// created when Run starts and closed before it returns, however the run
// ends.
func ResultsTo(path string) Option { return func(c *config) { c.results = path } }

// MinCalls ends the measured window as soon as every pattern of the mix
// has had n calls end, instead of at the scenario's duration, which then
// only bounds it (default 0: the window lasts the duration). A run that
// needs so many calls asks for them, not for a window it hopes yields them
// on a machine whose pace it cannot know. Outcome.Duration is then the
// window measured. A sharded run refuses it: its shards' windows must
// end together.
func MinCalls(n int) Option { return func(c *config) { c.minCalls = n } }

// StopWhen asks f, every progress line, about the run so far (its
// metrics, as Outcome's Total and Patterns, over the calls ended yet); a
// reason it gives ends the measured window there, as MinCalls does, and
// is the Outcome's Stopped. A breached abort threshold stops a run this
// way. A sharded run refuses it: its shards' windows must end together.
func StopWhen(f func(Outcome) string) Option { return func(c *config) { c.stopWhen = f } }
