package report

import (
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// The replayed section lists each refusing partition's seconds from the
// first charge, the budget as "its budget", and says when the replay
// isolated hot values, as the emulated limits do.
func TestReplaySection(t *testing.T) {
	var b strings.Builder
	p := &printer{w: &b}
	p.replay(&capacity.Replay{First: 100, Isolations: 1, Partitions: []capacity.ReplayedPartition{
		{Target: designs.MainTable, Partition: 2, Side: "write", Keys: []string{"HOT", "COLD"}, Seconds: 4,
			Ranges: []capacity.SecondRange{{From: 101, To: 103}, {From: 110, To: 110}}, Refused: 0.25},
		{Target: "GSI1", Partition: -1, Side: "read", Keys: []string{"G"}, Seconds: 1, Ranges: []capacity.SecondRange{{From: 105, To: 105}}, Refused: 0.1},
	}})
	contains(t, "replay", b.String(),
		"| table | 2 | `HOT, COLD` | write | 1–3, 10 | 25.0% |",
		"| GSI1 | its budget | `G` | read | 5 | 10.0% |",
		"Hot partition key values isolated on partitions of their own after their partition stayed hot (split for heat), as the emulated limits isolate them: 1.")
}
