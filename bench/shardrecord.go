package bench

import (
	"fmt"
	"time"
)

// checkRecorded refuses a shard file whose figures disagree with each
// other where every run's agree, as RunLimited records them: the ledger's
// observed calls are its patterns' calls summed (each observation is one
// pattern operation's call); the model's span is the run's measured span
// (CapacitySpan of its start, elapsed time, duration and failure); and the
// model's requests are the run's calls, or with a failure at most those
// (the calls due before it). A file without a ledger (the model did not
// run) has no model inputs. Each is named by its field in shard.json.
func checkRecorded(s Shard) error {
	f := s.File
	damaged := "the file was edited or damaged; merge the shard's folder as the run wrote it"
	in := f.Inputs
	if f.Ledger == nil {
		if in != (ModelInputs{}) {
			return fmt.Errorf("%s: model_inputs are %+v without a ledger (ledger), which a run that did not model writes as zero: %s", s.Dir, in, damaged)
		}
		return nil
	}
	var calls int64
	for _, p := range f.Ledger.Patterns {
		calls += p.Calls
	}
	if f.Ledger.Observed != calls {
		return fmt.Errorf("%s: ledger.observed_calls is %d, its patterns' calls sum to %d (ledger.patterns[].calls): %s", s.Dir, f.Ledger.Observed, calls, damaged)
	}
	if span := (Outcome{Outcome: f.Run}).CapacitySpan(); in.Span != span {
		return fmt.Errorf("%s: model_inputs.span_ns is %d (%s), the run measured for %d (%s: run.Elapsed, at most run.Duration, before run.Failure): %s",
			s.Dir, in.Span, in.Span, span, span.Round(time.Millisecond), damaged)
	}
	total := int64(f.Run.Total.Requests)
	switch {
	case f.Run.Failure == nil && in.Requests != total,
		f.Run.Failure != nil && (in.Requests > total || in.Requests < 0):
		return fmt.Errorf("%s: model_inputs.requests is %d, the run made %d calls (run.Total.requests): %s", s.Dir, in.Requests, total, damaged)
	}
	return nil
}
