package engine

import "time"

// Failure is why a run stopped before its end for a reason of the test
// bed, not of the design: the service it measures exited, or calls failed
// for infrastructure reasons (connection refused, 5xx, timeouts) beyond
// InfraFailureShare. Figures from after At are not the design's.
type Failure struct {
	At     time.Duration // since measuring began (negative: before it, e.g. while seeding)
	Reason string        // what happened, for people
	Logs   string        // the service's last log lines, when known
}

// Watch has Run stop promptly, with Outcome.Failure set, when done closes;
// cause says what happened (its error text becomes Failure.Reason). Pass
// an embedded DynamoDB Local's Done and Exit.
func Watch(done <-chan struct{}, cause func() error) Option {
	return func(c *config) { c.watch, c.watchCause = done, cause }
}
