package engine

import (
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// A second in which no call finished has no latency: the progress line
// prints a dash, never vegeta's quantile of nothing (math.MinInt64).
func TestLatencyOfNoCallsIsADash(t *testing.T) {
	var none vegeta.LatencyMetrics
	if got := Latency(none.Quantile(0.5)); got != "—" {
		t.Errorf("Latency(quantile of no calls) = %q, want —", got)
	}
	if got := Latency(1500); got != "2µs" {
		t.Errorf("Latency(1.5µs) = %q, want 2µs", got)
	}
}
