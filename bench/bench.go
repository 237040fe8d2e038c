package bench

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/served"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/keytab"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/workload"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

// Outcome is what a run measured: the engine's results and metrics, the
// capacity model's report, and how far the client's images are exact.
type Outcome struct {
	engine.Outcome
	Capacity capacity.Report
	Fidelity meter.Fidelity
	// Limits is the limits the run was under, also when it stopped
	// before measuring; Throttling is what the emulator measured (nil with
	// limits off, or when nothing was measured).
	Limits     Limits
	Throttling *emulate.Throttling
	// Ledger and Inputs are what the capacity model ran on (nil and zero
	// when it did not run): a shard writes them out, so that several
	// machines' runs are modelled as one (Merge).
	Ledger *ledger.Ledger `json:"-"`
	Inputs ModelInputs
	// Denied is the emulator's count of denied calls (throttled, or
	// given up for a transaction conflict) per partition key, the model's
	// Denied.
	Denied []capacity.DeniedRow
	// Merged names the shard reports a merged run was made of.
	Merged []string
	// Served is what a remote service answered each attempt, from the
	// errors the SDK parsed: real DynamoDB's throttling (nil on this
	// machine, or when db is not an SDK client).
	Served *served.Summary
	// Service names what answered the calls when it was not DynamoDB
	// Local ("real DynamoDB in eu-west-1"): its consumed capacity is then
	// the service's own.
	Service string
	// Thresholds are the run's gates, evaluated on it (package gate).
	Thresholds []threshold.Result
	// Clients says the calls were clients' own, served through the
	// endpoint (Measured.Clients): the report names their pace and keys
	// the clients'.
	Clients bool
}

// ModelInputs are the run's figures the capacity model takes beside its
// ledger.
type ModelInputs struct {
	Requests   int64         `json:"requests"`
	Span       time.Duration `json:"span_ns"`
	TableBytes int64         `json:"table_bytes"`
}

// Limits says whether a run throttles as real DynamoDB would (package
// emulate), at what scale of its limits, and with transaction conflicts.
type Limits struct {
	Off   bool
	Scale float64 // 0 means 1, settled by RunLimited
	// Share is this process's share of the run's traffic: 1/N for one of
	// N shards (0 means 1). Each shard sees that share of every key's
	// calls, so it emulates that share of every limit.
	Share float64
	// Creating, when above 0, has tables read CREATING for that long after
	// they are created, as real DynamoDB's do (emulate.Config.Creating).
	Creating time.Duration
	// PlacementSeed salts the placement of partition key values on
	// partitions (emulate.Config.PlacementSeed), in the emulator and the
	// model alike.
	PlacementSeed uint64
	// NoConflicts turns off transaction conflicts, emulated with the limits
	// otherwise (emulate.Config.NoConflicts).
	NoConflicts bool
}

// settled is l with its defaults applied, once, where a run's limits
// are settled (RunLimited): a scale of 0 is DynamoDB's own, 1. Everything
// after reads the settled figure as it is.
func (l Limits) settled() Limits {
	if !l.Off {
		l.Scale = throughput.Scale(l.Scale)
	}
	return l
}

// scale is the scale of the limits this process emulates: the run's
// settled scale, at this process's share.
func (l Limits) scale() float64 {
	s := l.Scale
	if l.Share > 0 && l.Share < 1 {
		s *= l.Share
	}
	return s
}

// modelOf is the capacity model of a run of sc from what it measured (in),
// at the target rate (sc's declared peak without one), under the limits
// lim: at the scale they emulated, and with keys placed by lim's seed
// (limits off too, on AWS's partition count). A run, or a merge of
// shards, adds what its emulator counted.
func modelOf(sc workload.Scenario, in ModelInputs, targetRate float64, lim Limits) capacity.Model {
	return capacity.Model{Schema: sc.Design.Schema, Requests: in.Requests, Duration: in.Span, TargetRate: cmp.Or(targetRate, sc.DeclaredPeak), DeclaredPeak: sc.DeclaredPeak,
		TableBytes: in.TableBytes, Settings: settingsOf(sc, lim), TransactionHold: sc.TransactionHold, PatternHold: holdsOf(sc).Pattern,
		PatternShare: mixShares(sc)}
}

// mixShares is each of sc's patterns' share of the mix's calls, by its
// steps' weights.
func mixShares(sc workload.Scenario) map[designs.PatternID]float64 {
	total := 0
	for _, st := range sc.Mix {
		total += max(st.Weight, 0)
	}
	m := map[designs.PatternID]float64{}
	for _, st := range sc.Mix {
		if total > 0 && st.Weight > 0 {
			m[st.Pattern] += float64(st.Weight) / float64(total)
		}
	}
	return m
}

// holdsOf is how long sc's calls hold their items on real DynamoDB: the
// scenario's TransactionHold and each step's own for its pattern (nil
// when none declares one). The emulator's conflicts and the capacity
// model's conflict limit both take it.
func holdsOf(sc workload.Scenario) capacity.Holds {
	h := capacity.Holds{Transaction: sc.TransactionHold}
	for _, st := range sc.Mix {
		if st.TransactionHold > 0 {
			if h.Pattern == nil {
				h.Pattern = map[designs.PatternID]time.Duration{}
			}
			h.Pattern[st.Pattern] = st.TransactionHold
		}
	}
	return h
}

// settingsOf is how a run of sc under lim configures the throughput
// engine beyond the schema: the emulator's, which the capacity model
// carries to replay the run alike (limits off, at DynamoDB's own scale).
func settingsOf(sc workload.Scenario, lim Limits) throughput.Settings {
	s := throughput.Settings{WarmReads: float64(sc.Warm.Reads), WarmWrites: float64(sc.Warm.Writes),
		MaxReads: float64(sc.MaxOnDemand.Reads), MaxWrites: float64(sc.MaxOnDemand.Writes),
		SwitchedRCU: float64(sc.SwitchedFrom.Reads), SwitchedWCU: float64(sc.SwitchedFrom.Writes), PlacementSeed: lim.PlacementSeed}
	if !lim.Off {
		s.Scale = lim.scale()
	}
	return s
}

// CapacitySpan is the stretch of the measured phase the capacity model
// covers: the phase (without the drain after it), cut at the test bed's
// failure when there was one; zero when measuring never began.
func (o Outcome) CapacitySpan() time.Duration {
	if o.Started.IsZero() {
		return 0
	}
	span := o.Elapsed
	if o.Duration > 0 {
		span = min(span, o.Duration)
	}
	if f := o.Failure; f != nil {
		span = max(0, min(span, f.At))
	}
	return span
}

// Run runs scenario sc against db with the engine's options (engine.Workers,
// engine.TargetRate, ...), metering every call, then runs the capacity
// model over what the measured phase consumed. DynamoDB's limits are off:
// see RunLimited. An interrupted run returns what it measured; a run whose
// test bed failed, what it measured before the failure (CapacitySpan).
func Run(ctx context.Context, db engine.DynamoDB, sc workload.Scenario, opts ...engine.Option) (Outcome, error) {
	return RunLimited(ctx, db, sc, Limits{Off: true}, opts...)
}

// RunLimited is Run with DynamoDB's limits emulated as lim says: the
// measured phase's calls are throttled partition by partition (package
// emulate) through the SDK's own retryer, which needs db to be an SDK
// client. Seeding and warm-up are not throttled.
func RunLimited(ctx context.Context, db engine.DynamoDB, sc workload.Scenario, lim Limits, opts ...engine.Option) (Outcome, error) {
	m := &measurer{schema: sc.Design.Schema, names: keytab.New()}
	lim = lim.settled()
	c, sdk := db.(*dynamodb.Client)
	if !lim.Off && !sdk {
		return Outcome{}, fmt.Errorf("bench: emulating DynamoDB's limits needs an SDK client (*dynamodb.Client), not %T: run with limits off", db)
	}
	if sdk {
		var install []func(*dynamodb.Options)
		if remote(c) {
			// Only a remote service's answers are reported: DynamoDB Local
			// throttles nothing, so its bench spares the per-call work.
			m.served = served.New()
			install = append(install, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, m.served.Install) })
		}
		if !lim.Off {
			m.limits = emulate.New(sc.Design.Schema, emulate.Config{Settings: settingsOf(sc, lim), Creating: lim.Creating,
				Keys: m.names, NoConflicts: lim.NoConflicts, Holds: holdsOf(sc)})
			install = append(install, m.limits.Install)
		}
		db = dynamodb.New(c.Options(), install...)
	}
	out, err := engine.Run(ctx, db, sc, append(opts, engine.Measured(m))...)
	run := Measured{Outcome: out, Scenario: sc, Limits: lim, Emulator: m.limits}
	if err == nil && m.ledger != nil {
		run.Ledger = m.ledger
		run.Inputs, err = m.inputs(out)
	}
	res := NewOutcome(run)
	res.Fidelity = m.fidelity
	if m.served != nil && m.ledger != nil {
		s := m.served.Summary()
		res.Served = &s
	}
	return res, err
}

// inputs are the figures the capacity model takes beside the ledger of
// out's measured phase: no requests when there is nothing to model (no
// call made, or none due before the test bed failed).
func (m *measurer) inputs(out engine.Outcome) (ModelInputs, error) {
	requests, span := int64(out.Total.Requests), Outcome{Outcome: out}.CapacitySpan()
	if f := out.Failure; requests > 0 && f != nil {
		// The ledger stopped at the failure (measurer.Cut); the rate it is
		// modelled at counts the calls due before it, over the time before
		// it.
		if f.At <= 0 {
			return ModelInputs{}, nil
		}
		var err error
		if requests, err = dueBefore(out, f.Time); err != nil {
			return ModelInputs{}, err
		}
	}
	if requests == 0 {
		return ModelInputs{}, nil
	}
	return ModelInputs{Requests: requests, Span: span, TableBytes: m.tableBytes(out.Table)}, nil
}

// measure gives model what the run measured beside its ledger: each
// pattern's hold on the test bed and calls, from o's latencies; and with the run's live emulator em (nil: limits off), the
// calls it denied, when they ended, where it placed each key and the item
// conflicts it met. o keeps what em measured over requests in span
// (Throttling, Denied).
func (o *Outcome) measure(model *capacity.Model, em *emulate.Emulator, requests int64, span time.Duration) {
	model.TestBedHold, model.PatternCalls = holdTimes(o.Outcome)
	if em == nil {
		return
	}
	em.Inform(model)
	o.Denied = em.DeniedAll()
	t := em.Measured(requests, span)
	o.Throttling = &t
	model.ItemConflicts = itemConflicts(t)
	model.TxDenied = em.TxDenied()
}

// holdTimes is the p50 latency of each pattern's calls, how long a
// transaction of the pattern held its items on the test bed (shown beside
// the hold on DynamoDB, never used for a limit), and the calls made of
// each. A run whose workers fell behind the pace gives no test bed hold:
// its latencies count the wait for a worker (and any backoff), not a
// transaction's time in flight. Its conflict limit stands, as it rests on
// the hold on DynamoDB.
func holdTimes(out engine.Outcome) (map[designs.PatternID]time.Duration, map[designs.PatternID]int64) {
	hold, calls := map[designs.PatternID]time.Duration{}, map[designs.PatternID]int64{}
	for _, p := range out.Patterns {
		if p.Metrics.Requests > 0 {
			hold[p.ID], calls[p.ID] = p.Metrics.Latencies.P50, int64(p.Metrics.Requests)
		}
	}
	if out.Saturated != nil {
		clear(hold)
	}
	return hold, calls
}

// itemConflicts is the item-level conflicts the emulator met, by item.
func itemConflicts(t emulate.Throttling) map[string]int64 {
	n := map[string]int64{}
	for _, it := range t.ConflictItems {
		n[it.Item] = it.Conflicts
	}
	return n
}

// dueBefore counts the run's calls due before at, from its results file;
// without one, every call it measured.
func dueBefore(out engine.Outcome, at time.Time) (int64, error) {
	if out.ResultsFile == "" {
		return int64(out.Total.Requests), nil
	}
	var n int64
	err := engine.ReadResults(out.ResultsFile, func(r *vegeta.Result) error {
		if r.Timestamp.Before(at) {
			n++
		}
		return nil
	})
	return n, err
}

// remote reports whether c calls a service off this machine: real
// DynamoDB (no endpoint set), or an endpoint that is not loopback.
func remote(c *dynamodb.Client) bool {
	e := aws.ToString(c.Options().BaseEndpoint)
	return e == "" || !testbed.IsLoopback(e)
}

// backoffHolds is the share of the workers' time the SDK's backoff must
// take around the moment they fell behind to account for it: most of it.
// Below that, the workers were busy with the test bed's answers, and the
// test bed could not keep the pace. Inferred: a threshold of the
// harness's own diagnosis, not a DynamoDB figure; the report prints the
// share measured, not this bound.
const backoffHolds = 0.5

// heldByBackoff tells whether the workers fell behind the pace because the
// SDK held them in its backoff after throttling: the run's SDK retries,
// and the share of the workers' time held (how long calls waited in the
// backoff, held's answer) from a second before the call that fell behind
// was due to the end of its wait for a worker.
func heldByBackoff(sat *engine.Saturation, out engine.Outcome, retries int64, held func(from, to time.Time) time.Duration) {
	sat.Retries = retries
	if retries == 0 || out.Workers == 0 {
		return
	}
	due := out.Started.Add(sat.At)
	from, to := due.Add(-time.Second), due.Add(engine.SaturationWait)
	sat.BackoffShare = held(from, to).Seconds() / (float64(out.Workers) * to.Sub(from).Seconds())
	sat.Backoff = sat.BackoffShare >= backoffHolds
}

// measurer is the engine's Measurer: an instrumented client for the run, and a
// ledger of the measured phase.
type measurer struct {
	schema   designs.Schema
	names    *keytab.Numbering // key texts the ledger and the emulator share
	limits   *emulate.Emulator // nil: limits off
	served   *served.Observer  // nil: not an SDK client
	client   *meter.Client
	ledger   *ledger.Ledger
	fidelity meter.Fidelity
	cut      atomic.Int64 // Unix nanoseconds from which calls are not accounted; 0: none
}

func (m *measurer) Client(db designs.DB) designs.DB {
	m.client = meter.NewClient(db, m.schema)
	return m.client
}

// Start begins measuring, and throttling when limits are on: what each
// call consumed is debited from its partitions as the ledger charges it.
func (m *measurer) Start() {
	m.ledger = ledger.NewLedgerKeys(m.schema, m.names)
	emulate.Attach(m.limits, m.client, func(ctx context.Context, o pricing.Observation) []pricing.Charge {
		if cut := m.cut.Load(); cut != 0 && o.At.UnixNano() >= cut {
			return nil
		}
		if h, ok := ctx.Value(heldKey{}).(*ledger.Held); ok {
			return h.Observe(o)
		}
		return m.ledger.Observe(o)
	})
	if m.limits != nil {
		m.limits.Enable()
	}
	if m.served != nil {
		m.served.Enable()
	}
}

// Cut stops accounting the calls made from at on: the test bed failed
// then, and what they consumed is not the design's.
func (m *measurer) Cut(at time.Time) { m.cut.Store(at.UnixNano()) }

// heldKey marks a pattern call's context with its ledger.Held.
type heldKey struct{}

// Call holds what a measured pattern call consumes until the engine says
// whether it counted the call: one the drain cut short is charged nothing,
// as it is in none of the pattern's calls, so that the units per call
// (charged over counted) stay exact whatever the drain cuts. The limits
// emulator still debits what it consumed at once: DynamoDB did.
func (m *measurer) Call(ctx context.Context) (context.Context, func(counted bool)) {
	if m.ledger == nil {
		return ctx, func(bool) {} // warming up: nothing is charged
	}
	h := m.ledger.Hold()
	return context.WithValue(ctx, heldKey{}, h), h.End
}

// settleWait bounds how long the end of a run waits for the client's
// settling reads.
const settleWait = 30 * time.Second

// Stop waits for the settling reads, unless the run was interrupted: then
// it reports what is settled so far at once.
func (m *measurer) Stop(ctx context.Context) {
	if m.limits != nil {
		m.limits.Disable()
	}
	if m.served != nil {
		m.served.Disable()
	}
	m.client.Observe(nil)
	if ctx.Err() == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, settleWait)
		defer cancel()
	}
	m.fidelity = m.client.Settle(ctx)
}

// tableBytes is the size of the table as the run left it.
func (m *measurer) tableBytes(table string) int64 {
	var n int64
	m.client.Items(table, func(it ddbitem.Item) { n += int64(ddbitem.Size(it)) })
	return n
}
