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
// limit (capacity.Report.FirstRate: a transaction conflict limit, a
// partition, a table or index, or a new table's warm throughput,
// whichever comes first) over the target rate (the model's declared peak
// when bench was given none), or over the measured rate without one.
func headroom(c capacity.Report) (float64, string) {
	first := c.FirstRate()
	if first == 0 {
		first = math.Inf(1)
	}
	base := c.TargetRate
	if base <= 0 {
		base = c.MeasuredRate
	}
	switch {
	case math.IsInf(first, 1):
		return 0, "the model forecasts no throttle at any rate"
	case base <= 0:
		return 0, "no rate was measured"
	}
	return first / base, ""
}
