package report

import (
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
)

// mark is a figure's source as the reports write it after the figure,
// with a space before it, or nothing.
func mark(s *rules.Source) string {
	if m := s.Mark(); m != "" {
		return " " + m
	}
	return ""
}

// throttleSource is what the hot keys' throttle rates rest on: one
// Source for all, as the model gives them.
func throttleSource(hs []capacity.HotKey) *rules.Source {
	for _, h := range hs {
		if h.ThrottleRateSource != nil {
			return h.ThrottleRateSource
		}
	}
	return nil
}

// partitionForecast is what the emulated section's forecast of a
// partition rests on, for real DynamoDB: the partition the emulator placed
// its keys on, at its limit, with the share over it refused.
func partitionForecast(billing string) *rules.Source {
	return rules.Cite("partition-reads", "partition-writes", capacity.PartitionsRule(billing == "provisioned"), "placement", "throttled-share")
}

// throttlingSources names what the emulated figures that forecast real
// DynamoDB rest on, by their field in metrics.json's throttling.
func throttlingSources(billing string) map[string]*rules.Source {
	f := partitionForecast(billing)
	return map[string]*rules.Source{
		"partitions[].forecast_rate":  f,
		"partitions[].forecast_share": f,
		"isolations":                  splitForHeat(),
	}
}

// splitForHeat is what the emulator's isolation of a hot value rests on.
func splitForHeat() *rules.Source { return rules.Cite("split-for-heat") }
