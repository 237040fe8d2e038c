package bench

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/findings"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/served"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/workload"
)

// ShardFormat versions ShardFile: a change that an older merge would read
// wrongly gets a new number.
// 4: a refusal is its own status in results.bin (engine.StatusRefused),
// where 3 wrote it as a 409 error.
const ShardFormat = "ddbharness-shard/4"

// ShardFile is what one shard of a run writes beside its report (as
// shard.json, with its calls in results.bin): everything Merge needs to
// model the shards' runs as one, its capacity ledger (units per second,
// per target, per partition key) included. docs/endpoints-and-scale.md
// documents it.
type ShardFile struct {
	Format     string               `json:"format"`
	Shard      engine.ShardSpec     `json:"shard"`
	Service    string               `json:"service,omitempty"`
	Run        engine.Outcome       `json:"run"`
	Limits     Limits               `json:"limits"`
	Throttling *emulate.Throttling  `json:"throttling,omitempty"`
	Denied     []capacity.DeniedRow `json:"denied,omitempty"`
	Fidelity   meter.Fidelity       `json:"fidelity"`
	Served     *served.Summary      `json:"served,omitempty"`
	Inputs     ModelInputs          `json:"model_inputs"`
	Ledger     *ledger.LedgerFile   `json:"ledger,omitempty"` // nil: the run stopped before measuring
}

// ShardFileOf is the shard file of a run.
func ShardFileOf(out Outcome) ShardFile {
	f := ShardFile{Format: ShardFormat, Shard: out.Shard, Service: out.Service, Run: out.Outcome, Limits: out.Limits, Throttling: out.Throttling,
		Denied: out.Denied, Fidelity: out.Fidelity, Served: out.Served, Inputs: out.Inputs}
	if out.Ledger != nil {
		l := out.Ledger.Export()
		f.Ledger = &l
	}
	return f
}

// Shard is one shard's output, as read back: its file, and the path of
// its calls' results file.
type Shard struct {
	Dir     string
	File    ShardFile
	Results string
}

// Merge models the shards of one run (sc) as if one machine had made all
// their calls: vegeta's metrics computed over the calls of every shard's
// results file, read one at a time, the ledgers summed per second, target
// and key, and the capacity model run on the sum at the run's own limits.
// Every shard of the run must be there, once. MergeResults writes the
// calls themselves. Both stop, with ctx's error, when ctx ends.
func Merge(ctx context.Context, sc workload.Scenario, shards []Shard) (Outcome, error) {
	if len(shards) == 0 {
		return Outcome{}, fmt.Errorf("merge: no shard given")
	}
	if err := checkShards(sc, shards); err != nil {
		return Outcome{}, err
	}
	slices.SortFunc(shards, func(a, b Shard) int { return cmp.Compare(a.File.Shard.I, b.File.Shard.I) })
	out, parts := sumShards(shards)
	var err error
	if out.Total, out.Patterns, out.Errors, out.Refusals, err = metricsOf(ctx, shards, shards[0].File.Run.Patterns); err != nil {
		return out, fmt.Errorf("merge: %w", err)
	}
	if len(parts.answers) > 0 {
		s := served.Merge(parts.answers...)
		out.Served = &s
	}
	if len(parts.ledgers) == 0 {
		return out, nil
	}
	if err := parts.model(sc, &out); err != nil {
		return out, fmt.Errorf("merge: %w", err)
	}
	return out, nil
}

// shardParts is what the shards' files hold beside their runs, gathered
// for the merge: ledgers, the calls denied, the emulator's counts
// and the service's answers.
type shardParts struct {
	ledgers   []ledger.LedgerFile
	denied    [][]capacity.DeniedRow
	throttles []emulate.Throttling
	answers   []served.Summary
}

// sumShards adds the shards' runs (sorted by shard) into one run, as one
// machine's, and gathers the rest of their files.
func sumShards(shards []Shard) (Outcome, shardParts) {
	first := shards[0].File
	out := Outcome{Outcome: first.Run, Limits: first.Limits.settled(), Service: first.Service}
	out.Limits.Share = 0
	out.Shard = engine.ShardSpec{N: first.Shard.N, Run: first.Shard.Run, Start: first.Shard.Start}
	out.Workers, out.Unsent, out.CutOff, out.Merged = 0, 0, 0, nil
	var parts shardParts
	end := time.Time{}
	for _, s := range shards {
		out.Merged = append(out.Merged, s.Dir)
		if e := addRun(&out, s.File); e.After(end) {
			end = e
		}
		parts.add(s.File)
	}
	if !out.Started.IsZero() {
		out.Elapsed = end.Sub(out.Started)
	}
	return out, parts
}

// addRun adds shard f's run to out: its workers and counts summed, the
// earliest start, failure and saturation, the latest late start. It
// returns when the shard ended measuring (zero: it never began).
func addRun(out *Outcome, f ShardFile) (end time.Time) {
	out.Workers += f.Run.Workers
	out.Unsent += f.Run.Unsent
	out.CutOff += f.Run.CutOff
	out.Interrupted = out.Interrupted || f.Run.Interrupted
	out.LateStart = max(out.LateStart, f.Run.LateStart)
	out.Fidelity = addFidelity(out.Fidelity, f.Fidelity)
	out.Inputs.Requests += f.Inputs.Requests
	out.Inputs.Span = max(out.Inputs.Span, f.Inputs.Span)
	out.Inputs.TableBytes = max(out.Inputs.TableBytes, f.Inputs.TableBytes)
	if f.Run.Failure != nil && (out.Failure == nil || f.Run.Failure.At < out.Failure.At) {
		out.Failure = f.Run.Failure
	}
	if f.Run.Saturated != nil && (out.Saturated == nil || f.Run.Saturated.At < out.Saturated.At) {
		out.Saturated = f.Run.Saturated
	}
	if f.Run.Started.IsZero() {
		return time.Time{}
	}
	if out.Started.IsZero() || f.Run.Started.Before(out.Started) {
		out.Started = f.Run.Started
	}
	return f.Run.Started.Add(f.Run.Elapsed)
}

// add gathers what shard file f holds beside its run.
func (p *shardParts) add(f ShardFile) {
	if f.Ledger != nil {
		p.ledgers = append(p.ledgers, *f.Ledger)
	}
	if f.Throttling != nil {
		p.throttles = append(p.throttles, *f.Throttling)
	}
	if f.Served != nil {
		p.answers = append(p.answers, *f.Served)
	}
	p.denied = append(p.denied, f.Denied)
}

// model sums the shards' ledgers and runs the capacity model on the sum
// at the run's own limits, with the emulator's counts merged, into out.
func (p shardParts) model(sc workload.Scenario, out *Outcome) error {
	merged, err := ledger.MergeLedgers(sc.Design.Schema, p.ledgers...)
	if err != nil {
		return err
	}
	model := modelOf(sc, out.Inputs, out.TargetRate, out.Limits)
	if !out.Limits.Off {
		denied := emulate.MergeDenied(p.denied...)
		model.Denied, model.DeniedKeys = emulate.DeniedLookup(denied), func() []capacity.DeniedRow { return denied }
	}
	if len(p.throttles) > 0 {
		t := emulate.MergeThrottling(p.throttles...)
		t.Scale = out.Limits.scale()
		if out.Inputs.Span > 0 {
			t.Rate = float64(out.Inputs.Requests) / out.Inputs.Span.Seconds()
		}
		out.Throttling = &t
	}
	out.Ledger = merged
	out.Capacity = findings.Analyze(model, merged)
	return nil
}

// MaxStartSpread is how far apart the shards of one run may have begun
// measuring when they were given no common START: more, and their calls
// are not one run's load at one time.
const MaxStartSpread = 5 * time.Second

// checkShards refuses shards that are not one whole run of sc, naming
// the field and both values.
func checkShards(sc workload.Scenario, shards []Shard) error {
	first := shards[0].File
	seen := map[int]string{}
	for _, s := range shards {
		f := s.File
		if err := f.Shard.Check(); err != nil {
			return fmt.Errorf("merge: %s: shard.json's shard: %w", s.Dir, err)
		}
		switch {
		case f.Format != ShardFormat:
			return fmt.Errorf("merge: %s: format %q, this ddbharness reads %q: merge with the ddbharness that made it", s.Dir, f.Format, ShardFormat)
		case f.Run.Scenario != sc.Name:
			return fmt.Errorf("merge: %s is a run of %s, not %s: merge one run's shards at a time", s.Dir, f.Run.Scenario, sc.Name)
		case f.Shard.Run != first.Shard.Run || f.Shard.N != first.Shard.N:
			return fmt.Errorf("merge: %s is %s, %s is %s: merge one run's shards at a time", s.Dir, f.Shard, shards[0].Dir, first.Shard)
		case seen[f.Shard.I] != "":
			return fmt.Errorf("merge: %s and %s are both %s: give each shard once", seen[f.Shard.I], s.Dir, f.Shard)
		case !f.Shard.Start.Equal(first.Shard.Start):
			return fmt.Errorf("merge: %s started at %s, %s at %s (start): the shards of one run share one START", s.Dir, f.Shard.Start.Format(time.RFC3339), shards[0].Dir, first.Shard.Start.Format(time.RFC3339))
		case f.Run.Pool != first.Run.Pool:
			return fmt.Errorf("merge: %s seeded %d entities, %s %d (pool): the shards of one run draw keys from one pool; give each the same --pool", s.Dir, f.Run.Pool, shards[0].Dir, first.Run.Pool)
		case !sameLimits(f.Limits, first.Limits):
			return fmt.Errorf("merge: %s ran under %+v, %s under %+v (limits): the shards of one run share their limits", s.Dir, f.Limits, shards[0].Dir, first.Limits)
		case f.Run.Started.IsZero():
			return fmt.Errorf("merge: %s never measured (it stopped while %s): its share of the run's calls is missing; run the whole run again", s.Dir, stoppedWhile(f.Run))
		case f.Inputs.Requests < 0:
			return fmt.Errorf("merge: %s: shard.json says %d requests (model_inputs.requests): not a count; the file was edited or damaged", s.Dir, f.Inputs.Requests)
		case first.Shard.Start.IsZero() && !first.Run.Started.IsZero() && absDuration(f.Run.Started.Sub(first.Run.Started)) > MaxStartSpread:
			return fmt.Errorf("merge: %s began measuring at %s, %s at %s (started): more than %s apart without a common START, they are not one run; give the shards --start",
				s.Dir, f.Run.Started.Format(time.RFC3339Nano), shards[0].Dir, first.Run.Started.Format(time.RFC3339Nano), MaxStartSpread)
		}
		if err := checkFlags(s, shards[0]); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := checkRecorded(s); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		seen[f.Shard.I] = s.Dir
	}
	var missing []int
	for i := 1; i <= first.Shard.N; i++ {
		if seen[i] == "" {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("merge: run %s has %d shards; shard(s) %v missing: give every shard's report folder", first.Shard.Run, first.Shard.N, missing)
	}
	return nil
}

// checkFlags refuses a shard whose file contradicts itself, or the first
// shard's, on what its counts mean: limits on or off (throttling present),
// transaction conflicts on or off, the billing mode, the service that
// answered, whether the service's answers were counted; and a throttling
// whose totals are not the sums of its patterns' rows, as the emulator
// writes them (a row's count cut out of the file, or edited). Each is
// named by its field in shard.json.
func checkFlags(s, first Shard) error {
	f, f0 := s.File, first.File
	damaged := "the file was edited or damaged; merge the shard's folder as the run wrote it"
	one := func(field string, v, v0 any) error {
		return fmt.Errorf("%s says %v, %s says %v (%s): the shards of one run share it; merge one run's shards at a time", s.Dir, v, first.Dir, v0, field)
	}
	switch t := f.Throttling; {
	case f.Limits.Off && t != nil:
		return fmt.Errorf("%s ran with limits off (limits.Off) yet has throttling counts (throttling): %s", s.Dir, damaged)
	case !f.Limits.Off && t == nil && f.Ledger != nil:
		return fmt.Errorf("%s ran under limits (limits.Off is false) yet has no throttling counts (throttling): %s", s.Dir, damaged)
	case t != nil && t.ConflictsOff != f.Limits.NoConflicts:
		return fmt.Errorf("%s: throttling.conflicts_off is %t, limits.NoConflicts %t: %s", s.Dir, t.ConflictsOff, f.Limits.NoConflicts, damaged)
	case t != nil && f0.Throttling != nil && t.Billing != f0.Throttling.Billing:
		return one("throttling.billing", t.Billing, f0.Throttling.Billing)
	case f.Service != f0.Service:
		return one("service", fmt.Sprintf("%q", f.Service), fmt.Sprintf("%q", f0.Service))
	case (f.Served == nil) != (f0.Served == nil):
		return one("served, present", f.Served != nil, f0.Served != nil)
	}
	if t := f.Throttling; t != nil {
		sum := t.Totalled()
		for _, c := range []struct {
			field      string
			total, sum int64
		}{
			{"calls", t.Calls, sum.Calls}, {"retries", t.Retries, sum.Retries}, {"refused_attempts", t.Refused, sum.Refused},
			{"throttled_calls", t.Throttled, sum.Throttled}, {"unprocessed_items", t.Unprocessed, sum.Unprocessed},
			{"cancelled_transactions", t.Cancelled, sum.Cancelled}, {"transaction_conflicts", t.Conflicts, sum.Conflicts},
			{"cancelled_for_conflict", t.ConflictCancelled, sum.ConflictCancelled},
		} {
			if c.total != c.sum {
				return fmt.Errorf("%s: throttling.%s is %d, its patterns' sum %d (throttling.patterns[].%[2]s): %[5]s", s.Dir, c.field, c.total, c.sum, damaged)
			}
		}
	}
	return nil
}

// sameLimits reports whether two shards ran under one run's limits (each
// shard's Share is its own).
func sameLimits(a, b Limits) bool {
	a.Share, b.Share = 0, 0
	return a == b
}

// stoppedWhile names what a shard that never measured was doing.
func stoppedWhile(r engine.Outcome) string {
	switch {
	case r.Failure != nil && r.Failure.Phase != "":
		return r.Failure.Phase
	case r.Interrupted:
		return "seeding or warming up, interrupted"
	}
	return "getting ready"
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// metricsOf computes vegeta's metrics of the mix and of each pattern in
// steps, the failed calls and the refused ones, over every shard's calls.
func metricsOf(ctx context.Context, shards []Shard, steps []engine.PatternMetrics) (vegeta.Metrics, []engine.PatternMetrics, []engine.ErrorCount, []engine.ErrorCount, error) {
	ids := make([]string, len(steps))
	for i, p := range steps {
		ids[i] = string(p.ID)
	}
	t := engine.NewTally(ids...)
	for _, s := range shards {
		var calls uint64
		if err := engine.ReadResults(s.Results, func(r *vegeta.Result) error {
			t.Add(r)
			calls++
			return ctx.Err()
		}); err != nil {
			return vegeta.Metrics{}, nil, nil, nil, err
		}
		if want := s.File.Run.Total.Requests; calls != want {
			return vegeta.Metrics{}, nil, nil, nil, fmt.Errorf("%s holds %d calls, its shard.json counts %d (run.total.requests): the results file was cut, emptied or replaced; merge the shard's folder as the run wrote it",
				s.Results, calls, want)
		}
	}
	out := make([]engine.PatternMetrics, len(steps))
	for i, p := range steps {
		out[i] = p
		out[i].Metrics = t.Pattern(ids[i])
	}
	return t.Total(), out, t.Errors(), t.Refusals(), nil
}

// MergeResults writes the calls of every shard's results file to w, in
// vegeta's format, interleaved by the time each call ended: the file reads
// as one machine's. Each pattern's calls are numbered across the shards
// already (the schedule numbers every shard's calls), and each shard's
// calls are due at its Started plus the schedule's offsets; moved by how
// much later than the first shard it started, every call sits on the one
// schedule, so the numbers follow due time and vegeta's plot reads the
// file as it is. How late each shard began is in the report.
func MergeResults(ctx context.Context, shards []Shard, w io.Writer) error {
	type head struct {
		dec   vegeta.Decoder
		r     vegeta.Result
		shift time.Duration
	}
	var origin time.Time
	for _, s := range shards {
		if t := s.File.Run.Started; !t.IsZero() && (origin.IsZero() || t.Before(origin)) {
			origin = t
		}
	}
	var heads []*head
	next := func(h *head) error {
		h.r = vegeta.Result{}
		err := h.dec.Decode(&h.r)
		h.r.Timestamp = h.r.Timestamp.Add(h.shift)
		return err
	}
	for _, s := range shards {
		f, err := userfile.OpenRegular(s.Results)
		if err != nil {
			return err
		}
		defer f.Close()
		h := &head{dec: vegeta.NewDecoder(bufio.NewReader(f))}
		if t := s.File.Run.Started; !t.IsZero() {
			h.shift = origin.Sub(t)
		}
		if err := next(h); err == nil {
			heads = append(heads, h)
		} else if !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: %w", s.Results, err)
		}
	}
	enc := vegeta.NewEncoder(w)
	for len(heads) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		first := 0
		for i, h := range heads {
			if h.r.End().Before(heads[first].r.End()) {
				first = i
			}
		}
		h := heads[first]
		if err := enc.Encode(&h.r); err != nil {
			return err
		}
		if err := next(h); errors.Is(err, io.EOF) {
			heads = slices.Delete(heads, first, first+1)
		} else if err != nil {
			return err
		}
	}
	return nil
}

func addFidelity(a, b meter.Fidelity) meter.Fidelity {
	return meter.Fidelity{Approximations: a.Approximations + b.Approximations, Unsure: a.Unsure + b.Unsure,
		SettleReads: a.SettleReads + b.SettleReads, StillUnsure: a.StillUnsure + b.StillUnsure}
}
