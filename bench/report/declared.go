package report

import (
	"fmt"

	"github.com/ddbharness/ddbharness/bench/capacity"
)

// declaredText sets the first limit the capacity model forecasts against
// the rate at peak the design's model declares (an MCP data model's
// access patterns' rps); "" when the model declares none. The headroom
// threshold (headroom > 1.5) gates on the same two rates.
func declaredText(r capacity.Report) string {
	peak := r.DeclaredPeak
	if peak <= 0 {
		return ""
	}
	first := r.FirstRate()
	if first <= 0 {
		return fmt.Sprintf("no limit at any rate against the model's declared peak of %s requests/s", rateText(peak))
	}
	return fmt.Sprintf("first limit at %s requests/s against the model's declared peak of %s (%.1f× headroom)", rateText(first), rateText(peak), first/peak)
}
