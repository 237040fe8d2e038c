package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// The states of a run, as metrics.json names them.
const (
	StateComplete    = "complete"
	StateInterrupted = "interrupted"
	StateFailed      = "failed"
)

// The phases a run goes through, as the engine names them; a run that did
// not complete stopped in one.
const (
	PhaseSeeding   = engine.PhaseSeed
	PhaseWarmup    = engine.PhaseWarmup
	PhaseMeasuring = engine.PhaseMeasure
)

// Status is what became of a run, worded once for every file of its report
// and for the command's headline, so that none of them says a run ran its
// whole duration when it did not, or shows an error rate of nothing.
type Status struct {
	State string // StateComplete, StateInterrupted or StateFailed
	Phase string // where an incomplete run stopped; "" for a complete one
	// Measured says the measured phase began: figures exist, whole or not.
	Measured bool
	// Healthy is how much of the measured phase ran before a failure (all
	// of it when none): what the capacity findings may cover.
	Healthy time.Duration
}

// StatusOf tells what became of out.
func StatusOf(out bench.Outcome) Status {
	s := Status{State: StateComplete, Measured: !out.Started.IsZero(), Healthy: out.CapacitySpan()}
	switch {
	case out.Failure != nil:
		s.State = StateFailed
	case out.Interrupted:
		s.State = StateInterrupted
	default:
		return s
	}
	switch {
	case s.Measured:
		s.Phase = PhaseMeasuring
	case out.Failure != nil && out.Failure.Phase != "":
		s.Phase = out.Failure.Phase
	case out.SeedTime > 0:
		s.Phase = PhaseWarmup
	default:
		s.Phase = PhaseSeeding
	}
	return s
}

// FindingsValid says the capacity findings describe a healthy stretch of
// measuring: none are shown for a run that failed before or at once.
func (s Status) FindingsValid() bool {
	return s.Measured && (s.State != StateFailed || s.Healthy > 0)
}

// Ran says how long the pacer ran: "ran for 20s", "ran 7.6 s of the 20s
// asked for, interrupted", or "never ran".
func (s Status) Ran(out bench.Outcome) string {
	switch {
	case s.State == StateComplete:
		return fmt.Sprintf("ran for %s", out.Duration)
	case !s.Measured:
		return "never ran"
	}
	return fmt.Sprintf("ran %s of the %s asked for, %s", secs(out.Elapsed), out.Duration, s.stopped())
}

func (s Status) stopped() string {
	if s.State == StateFailed {
		return "stopped by a failure of the test bed"
	}
	return "interrupted"
}

// Title is the run's name with what became of it, for plot and heat titles.
func (s Status) Title(out bench.Outcome) string {
	switch {
	case s.State == StateComplete:
		return out.Scenario
	case !s.Measured:
		return fmt.Sprintf("%s (%s while %s: nothing measured)", out.Scenario, s.State, s.Phase)
	case s.State == StateFailed:
		return fmt.Sprintf("%s (FAILED %s into %s: later calls are not the design's)", out.Scenario, secs(s.Healthy), out.Duration)
	}
	return fmt.Sprintf("%s (interrupted at %s of %s)", out.Scenario, secs(out.Elapsed), out.Duration)
}

// FailureReason is the first line of a failure's reason; the rest, if any,
// and the log lines go in the report's body.
func FailureReason(f *engine.Failure) string {
	line, _, _ := strings.Cut(strings.TrimSpace(f.Reason), "\n")
	line = strings.TrimSuffix(strings.TrimSpace(line), "; its last lines:")
	if line == "" {
		return "the test bed failed"
	}
	return line
}

// failureLogs is what to show of the service's last lines: the failure's
// logs, or what its reason carries beyond the first line.
func failureLogs(f *engine.Failure) string {
	if strings.TrimSpace(f.Logs) != "" {
		return strings.TrimRight(f.Logs, "\n")
	}
	_, rest, _ := strings.Cut(strings.TrimSpace(f.Reason), "\n")
	return strings.TrimRight(rest, "\n")
}

// Headline is one line on what a run showed: throughput, tail latency,
// errors and the first limit real DynamoDB would hit, or what stopped it.
func Headline(out bench.Outcome) string {
	s := StatusOf(out)
	var line string
	if f := out.Failure; f != nil {
		line = "FAILED: " + failedWhen(out, s) + ": " + FailureReason(f)
		if !s.Measured {
			return line + "; nothing measured"
		}
		line += "; "
	} else if !s.Measured {
		return fmt.Sprintf("interrupted while %s, before measuring: nothing measured", s.Phase)
	} else if s.State == StateInterrupted {
		line = fmt.Sprintf("interrupted: ran %s of the %s asked for; ", secs(out.Elapsed), out.Duration)
	}
	m := out.Total
	// Calls over the measured window, the span every rate of the report
	// uses (vegeta's throughput counts the drain after it too).
	rate := m.Throughput
	if span := out.CapacitySpan(); span > 0 {
		rate = float64(m.Requests) / span.Seconds()
	}
	line += fmt.Sprintf("%.0f calls/s, p99 %s, %.1f%% errors", rate, engine.Latency(m.Latencies.P99.Round(10*time.Microsecond)), 100*(1-m.Success))
	if n := engine.Refused(m); n > 0 {
		line += fmt.Sprintf(", %.1f%% refused", 100*float64(n)/float64(m.Requests))
	}
	if out.Saturated != nil {
		line += "; " + Saturated(out)
	}
	if t := out.Throttling; t != nil {
		line += fmt.Sprintf("; limits scale %g", t.Scale)
		all, _ := patternCalls(out)
		line += fmt.Sprintf(": %s throttled, %s", throttledOf(all), retriesText(t))
		if t.Conflicts > 0 {
			line += fmt.Sprintf("; %d transaction conflicts, %d transactions cancelled by them", t.Conflicts, t.ConflictCancelled)
		}
	} else {
		line += "; limits off"
	}
	if s.FindingsValid() {
		line += firstLimitText(out.Capacity.FirstLimit)
	}
	if c := out.Capacity.Ceiling; c != nil && s.FindingsValid() {
		line += ceilingText(c, out.Capacity.Scale)
		if s.State == StateFailed {
			line += fmt.Sprintf(", from the %s before the failure", secs(s.Healthy))
		}
	}
	if w := out.Capacity.Warm; w != nil && s.FindingsValid() && (out.Capacity.Ceiling == nil || w.Rate < out.Capacity.Ceiling.Rate) {
		line += fmt.Sprintf("; a new on-demand table throttles sooner, from %.0f requests/s (%s's warm throughput, %s RRU/s or %s WRU/s or a linear combination), until it grows%s",
			w.Rate, targetName(w.Target), figure.Thousands(w.ReadUnits), figure.Thousands(w.WriteUnits), mark(w.Source))
	}
	if d := declaredText(out.Capacity); d != "" && s.FindingsValid() {
		line += "; " + d
	}
	return line
}

// ceilingText is the headline's first throttle: real DynamoDB's when
// AWS's pages state every rule it rests on, else a forecast, marked with
// what it rests on; on a partition, with the hot keys sharing it and the
// rate each would reach alone.
func ceilingText(c *capacity.Ceiling, scale float64) string {
	where := targetName(c.Target)
	if c.Key != "" {
		where += " " + c.Key
	}
	on, forecast, limit := "on real DynamoDB", "", c.Limit
	if !c.Source.Documented() {
		on, forecast = "forecast", "forecast "
	}
	if scale != 0 && scale != 1 {
		// The limit's own scale note would nest in the parentheses.
		on, limit = fmt.Sprintf("%sat DynamoDB's limits × %g", forecast, scale), strings.TrimSuffix(limit, fmt.Sprintf(" (DynamoDB's limits × %g)", scale))
	}
	line := fmt.Sprintf("; first throttle %s: %s at %s requests/s (%s; %.1f× this run)", on, where, rateText(c.Rate), limit, c.Factor)
	sh := c.Sharing
	if sh == nil || len(sh.With) == 0 && sh.Alone == sh.Worst {
		return line + mark(c.Source)
	}
	alone := c.Key + " " + rateText(sh.Alone)
	for _, p := range sh.Shared {
		if slices.Contains(p.Keys, c.Key) {
			var each []string
			for i, k := range p.Keys {
				each = append(each, k+" "+rateText(p.Alone[i]))
			}
			alone = strings.Join(each, ", ")
		}
	}
	with := ""
	if len(sh.With) > 0 {
		with = " with " + strings.Join(sh.With, ", ")
	}
	return line + fmt.Sprintf(" on its partition as placed%s (alone: %s; hot keys spread as likely: %s; all on its partition: %s requests/s)%s",
		with, alone, rateText(sh.Expected), rateText(sh.Worst), mark(c.Source))
}

// rateText prints a request rate: whole above 100, else three figures.
func rateText(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return strconv.FormatFloat(r, 'g', 3, 64)
}

// failedWhen says when the test bed failed: in seconds of measuring, or
// in which phase before it.
func failedWhen(out bench.Outcome, s Status) string {
	if !s.Measured {
		return fmt.Sprintf("the test bed failed while %s, before measuring", s.Phase)
	}
	return fmt.Sprintf("the test bed failed %s into the %s run", secs(out.Failure.At), out.Duration)
}

// failureTime is when the test bed failed: the engine's clock, or the
// start of measuring plus how far into it.
func failureTime(out bench.Outcome, f *engine.Failure) time.Time {
	if !f.Time.IsZero() {
		return f.Time
	}
	return out.Started.Add(f.At)
}

// secs prints a part of a run in seconds, to a tenth: "7.6 s".
func secs(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// Saturated says the workers fell behind the pace, at which rate and
// when, and why. Under emulated limits whose SDK backoff took most of the
// workers' time then, the backoff held them: the latencies are the
// design's under DynamoDB's limits. Otherwise the test bed (this client or
// DynamoDB Local) could not keep the pace, with the SDK's retries and
// their share of the workers' time said, and what tells which.
func Saturated(out bench.Outcome) string {
	sat := out.Saturated
	when := fmt.Sprintf("at %.0f calls/s, %s into measuring", sat.Rate, secs(sat.At))
	if sat.Backoff {
		return fmt.Sprintf("the workers fell behind the pace %s, held by the SDK's backoff after throttling (%d SDK retries, whose waits took %.0f%% of the workers' time then): latencies are the design's under DynamoDB's limits; a lower rate (RATE) keeps the pace",
			when, sat.Retries, 100*sat.BackoffShare)
	}
	line, bed := "the test bed saturated "+when, "DynamoDB Local"
	if out.Service != "" {
		bed = out.Service
	}
	if out.Throttling == nil {
		return line + ": this client or " + bed + " could not keep the pace, so latencies from then on are the test bed's, not the design's; a lower rate (RATE) keeps it"
	}
	if sat.Retries == 0 {
		line += ", with 0 SDK retries"
	} else {
		line += fmt.Sprintf(", with %d SDK retries whose waits took only %.0f%% of the workers' time then", sat.Retries, 100*sat.BackoffShare)
	}
	return line + ": DynamoDB's limits did not hold the workers, this client or " + bed + " could not keep the pace, so latencies from then on are the test bed's, not the design's; the same run with LIMITS=off, or at a lower rate (RATE), tells which"
}
