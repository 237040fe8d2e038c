package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/ddbharness/ddbharness/bench/served"
)

// WriteServed writes what DynamoDB itself answered a run's calls, from the
// errors the SDK parsed (package served): on real DynamoDB the throttling
// is the service's, and the report shows it as the service gave it. Nothing
// when s is nil (no observer counted the run).
func WriteServed(w io.Writer, s *served.Summary) {
	if s == nil {
		return
	}
	p := &printer{w: w}
	p.serviceThrottling(*s)
}

// serviceThrottling writes, per pattern and operation with a throttled
// attempt, calls, attempts, throttled attempts and calls ended throttled;
// then each exception, reason and resource DynamoDB named, most named
// first.
func (p *printer) serviceThrottling(s served.Summary) {
	p.f("## Throttling, as the service answered\n\n")
	if s.ThrottledAttempts == 0 {
		p.f("No attempt was throttled: DynamoDB refused none of the %d attempts of %d calls for capacity.\n\n", s.Attempts, s.Calls)
		return
	}
	p.f("Counted from the error the SDK parsed from each attempt's answer, before its retryer decided (a transaction cancelled for throttling is not retried): %d of %d attempts were throttled (%.1f%%); %d of %d calls ended throttled (%.1f%%). Patterns with no throttled attempt are left out.\n\n",
		s.ThrottledAttempts, s.Attempts, pct(s.ThrottledAttempts, s.Attempts), s.ThrottledCalls, s.Calls, pct(s.ThrottledCalls, s.Calls))
	var rows [][]string
	for _, pc := range s.Patterns {
		if pc.ThrottledAttempts == 0 {
			continue
		}
		pattern := string(pc.Pattern)
		if pattern == "" {
			pattern = "—" // a call made outside a pattern
		}
		rows = append(rows, []string{pattern, pc.Operation, strconv.FormatInt(pc.Calls, 10), strconv.FormatInt(pc.Attempts, 10),
			strconv.FormatInt(pc.ThrottledAttempts, 10), fmt.Sprintf("%d (%.1f%%)", pc.ThrottledCalls, pct(pc.ThrottledCalls, pc.Calls))})
	}
	p.table("llrrrr", []string{"Pattern", "Operation", "Calls", "Attempts", "Throttled attempts", "Ended throttled"}, rows)
	rows = rows[:0]
	for _, r := range s.Reasons {
		reason := r.Reason
		if reason == "" {
			reason = "—"
		}
		rows = append(rows, []string{r.Exception, reason, code(r.Resource), strconv.FormatInt(r.Count, 10)})
	}
	p.f("What DynamoDB named. A throttled attempt names each of its reasons once, or none; a transaction cancelled for capacity names, for each action refused, its cancellation code and no resource.\n\n")
	p.table("lllr", []string{"Exception", "Reason", "Resource", "Times named"}, rows)
}
