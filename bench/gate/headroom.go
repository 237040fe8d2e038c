package gate

import (
	"math"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
)

type (
	engineMetrics    = engine.PatternMetrics
	patternThrottles = emulate.PatternThrottles
)

// headroom is the rate at which the capacity model forecasts the first
// throttle (a partition, a table or index, or a new table's warm
// throughput, whichever comes first) over the target rate, or over the
// measured rate without one.
func headroom(c *capacity.Ceiling, w *capacity.WarmCeiling, target, measured float64) (float64, string) {
	first := math.Inf(1)
	if c != nil && c.Rate > 0 {
		first = c.Rate
	}
	if w != nil && w.Rate > 0 {
		first = min(first, w.Rate)
	}
	base := target
	if base <= 0 {
		base = measured
	}
	switch {
	case math.IsInf(first, 1):
		return 0, "the model forecasts no throttle at any rate"
	case base <= 0:
		return 0, "no rate was measured"
	}
	return first / base, ""
}
