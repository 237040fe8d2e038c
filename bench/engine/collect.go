package engine

import (
	"fmt"
	"io"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/workload"
)

// ProgressEvery is how often a run prints its progress line.
const ProgressEvery = time.Second

// collector tallies a measured run's calls as they finish, writes each to
// the results file (when there is one) and keeps none, and prints a
// progress line every second: elapsed time, the rate achieved over the
// last second, that second's p50 and p99, and the errors and refusals so
// far.
type collector struct {
	name     string
	duration time.Duration // the measured window; past it, calls drain
	progress io.Writer
	results  *resultsFile // nil: calls are only tallied

	mu       sync.Mutex
	tally    *Tally
	errors   int
	throttle int // calls that ended throttled
	refused  int
	window   vegeta.LatencyMetrics
	inWindow int

	// short counts, per pattern, the calls MinCalls still asks for; enough
	// closes, at endedAt, when none is short or stopWhen gave a reason,
	// stopped (nil: the window lasts its duration).
	short    map[string]int
	stopWhen func(Outcome) string
	sc       workload.Scenario
	enough   chan struct{}
	endedAt  time.Time
	stopped  string

	began time.Time
	quit  chan struct{}
	done  sync.WaitGroup
}

func newCollector(sc workload.Scenario, progress io.Writer, results *resultsFile, minCalls int, stopWhen func(Outcome) string) *collector {
	var patterns []string
	for _, st := range sc.Mix {
		if st.Weight > 0 {
			patterns = append(patterns, string(st.Pattern))
		}
	}
	c := &collector{name: sc.Name, duration: sc.Duration, progress: progress, results: results, tally: NewTally(patterns...), stopWhen: stopWhen, sc: sc}
	if minCalls > 0 {
		c.short = map[string]int{}
		for _, p := range patterns {
			c.short[p] = minCalls
		}
	}
	if minCalls > 0 || stopWhen != nil {
		c.enough = make(chan struct{})
	}
	return c
}

// early closes when the window ends before its duration (MinCalls,
// StopWhen); nil,
// which never closes, for a window that lasts it or a run not measured.
func (c *collector) early() <-chan struct{} {
	if c == nil {
		return nil
	}
	return c.enough
}

// over reports whether the window ended early before due: a call due then
// is not the run's, and is neither made nor counted as not sent.
func (c *collector) over(due time.Time) bool {
	select {
	case <-c.early():
		return !due.Before(c.endedAt)
	default:
		return false
	}
}

// count takes a call off what MinCalls asks for, and ends the window when
// every pattern has its calls. Call with c.mu held.
func (c *collector) count(r *vegeta.Result) {
	if len(c.short) == 0 {
		return
	}
	if n, ok := c.short[r.Attack]; ok {
		if n > 1 {
			c.short[r.Attack] = n - 1
			return
		}
		delete(c.short, r.Attack)
	}
	if len(c.short) == 0 {
		c.short = nil
		c.end(time.Now(), "every pattern has the calls asked for")
	}
}

// end ends the window at now, before its duration, saying why; a window
// already ended, or at its duration, is left as it is. Call with c.mu
// held.
func (c *collector) end(now time.Time, why string) bool {
	if !c.endedAt.IsZero() || now.Sub(c.began) >= c.duration {
		return false // the drain ends nothing
	}
	c.endedAt, c.duration = now, now.Sub(c.began)
	fmt.Fprintf(c.progress, "%s: %s: the window ends at %s\n", c.name, why, c.duration.Round(10*time.Millisecond))
	close(c.enough)
	return true
}

// check asks stopWhen about the calls ended so far, and ends the window
// when it gives a reason.
func (c *collector) check(now time.Time) {
	c.mu.Lock()
	over := !c.endedAt.IsZero() || now.Sub(c.began) >= c.duration
	c.mu.Unlock()
	if c.stopWhen == nil || over {
		return
	}
	var so Outcome
	c.finish(&so, c.sc)
	why := c.stopWhen(so)
	if why == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.end(now, why) {
		c.stopped = why
	}
}

// add takes one finished call; many workers call it at once.
func (c *collector) add(r *vegeta.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.results != nil {
		c.results.write(r)
	}
	c.tally.Add(r)
	c.count(r)
	switch {
	case Failed(r.Code):
		c.errors++
	case r.Code == StatusRefused:
		c.refused++
	}
	if r.Code == StatusThrottled {
		c.throttle++
	}
	c.window.Add(r.Latency)
	c.inWindow++
}

// start begins the progress lines.
func (c *collector) start(began time.Time) {
	c.began, c.quit = began, make(chan struct{})
	c.done.Go(func() {
		tick := time.NewTicker(ProgressEvery)
		defer tick.Stop()
		last := began
		for {
			select {
			case <-c.quit:
				return
			case now := <-tick.C:
				c.line(now, now.Sub(last))
				c.check(now)
				last = now
			}
		}
	})
}

// stop ends the progress lines and prints the run's last one.
func (c *collector) stop() {
	close(c.quit)
	c.done.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tally.Requests() == 0 {
		fmt.Fprintf(c.progress, "%s: no call finished in %s\n", c.name, time.Since(c.began).Round(10*time.Millisecond))
		return
	}
	total := c.tally.Total()
	took := time.Since(c.began).Round(10 * time.Millisecond).String()
	if c.duration > 0 && time.Since(c.began) > c.duration {
		took = fmt.Sprintf("%s (+%s drain)", c.duration.Round(10*time.Millisecond), (time.Since(c.began) - c.duration).Round(10*time.Millisecond))
	}
	fmt.Fprintf(c.progress, "%s: %d calls in %s, p50 %s, p99 %s, errors %d%s%s\n", c.name, total.Requests,
		took, Latency(total.Latencies.P50), Latency(total.Latencies.P99), c.errors, throttledText(c.throttle), refusedText(c.refused))
}

// line prints one progress line for the window that just ended.
func (c *collector) line(now time.Time, window time.Duration) {
	c.mu.Lock()
	n, lat, errs, throttled, refused, duration := c.inWindow, c.window, c.errors, c.throttle, c.refused, c.duration
	c.inWindow, c.window = 0, vegeta.LatencyMetrics{}
	c.mu.Unlock()
	rate := float64(n) / window.Seconds()
	at := fmt.Sprintf("%5.0fs", now.Sub(c.began).Seconds())
	if past := now.Sub(c.began) - duration; duration > 0 && past > 0 {
		// Past the measured window: calls already due are finishing.
		at = fmt.Sprintf("drain +%.0fs", past.Seconds())
	}
	fmt.Fprintf(c.progress, "%s %s %9.1f/s  p50 %-9s p99 %-9s errors %d%s%s\n", c.name,
		at, rate, Latency(lat.Quantile(0.5)), Latency(lat.Quantile(0.99)), errs, throttledText(throttled), refusedText(refused))
}

// refusedText counts the calls refused, apart from the errors, when any
// were.
func refusedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", refused %d", n)
}

// throttledText counts the errors that were throttling, when any were.
func throttledText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d throttled)", n)
}

// finish closes the metrics into out.
func (c *collector) finish(out *Outcome, sc workload.Scenario) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out.Total, out.Errors, out.Refusals = c.tally.Total(), c.tally.Errors(), c.tally.Refusals()
	if !c.endedAt.IsZero() { // MinCalls or StopWhen ended the window early
		out.Duration, out.Stopped = c.duration, c.stopped
	}
	for _, st := range sc.Mix {
		if st.Weight <= 0 {
			continue
		}
		p, _ := sc.Design.Pattern(st.Pattern)
		out.Patterns = append(out.Patterns, PatternMetrics{Pattern: p, Weight: st.Weight, Keys: keysName(st), Metrics: c.tally.Pattern(string(st.Pattern))})
	}
}

// keysName says how a step draws its keys: the distribution, and the
// pool when the step names one ("zipf over owner").
func keysName(st workload.Step) string {
	name := workload.Uniform{}.String()
	if st.Keys != nil {
		name = st.Keys.String()
	}
	if st.Entity != "" {
		name += " over " + st.Entity
	}
	return name
}

// Latency prints a latency the way people read them: µs below a
// millisecond, ms below a second, then seconds. A negative one is no
// latency (vegeta's quantile of no calls is math.MinInt64): a dash.
func Latency(d time.Duration) string {
	switch {
	case d < 0:
		return "—"
	case d < time.Millisecond:
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// seedProgress prints the seeding's progress at most once a second, and
// when it completes. Drivers may report from many goroutines.
func seedProgress(w io.Writer, name string, began time.Time) func(done, total int) {
	var mu sync.Mutex
	var last time.Time
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if done < total && now.Sub(last) < ProgressEvery {
			return
		}
		last = now
		fmt.Fprintf(w, "%s: seeding %d/%d (%s)\n", name, done, total, now.Sub(began).Round(100*time.Millisecond))
	}
}
