// A 30-minute simulation in one goroutine: the race detector has nothing
// to find in it and makes it ten times slower, so it builds without it;
// make faults runs it (see newkey_mem_test.go).

//go:build !race

package emulate

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddbharness/ddbharness/designs"
)

// TestOnDemandDoubling: a new on-demand table serves its warm 4,000 WRU/s;
// 6,000 WRU/s spread over many values is held there until that peak is 30
// minutes old, then served in full (twice the 6,000 received is 12,000), on
// the partitions the table split into as it grew: its own, not a count
// the spec sets.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
func TestOnDemandDoubling(t *testing.T) {
	const ticks = 10
	e, clock := newAt(designs.Schema{PK: "PK"}, Config{})
	var flows []flow
	for i := range 120 {
		flows = append(flows, flow{key: fmt.Sprintf("K%d", i), units: 50, side: write})
	}
	got := simulate(e, clock, 1900, ticks, flows)
	total := func(s int) float64 {
		var n float64
		for _, u := range got[s] {
			n += u
		}
		return n
	}
	if u := total(60); math.Abs(u-4000) > 6000.0/ticks {
		t.Errorf("after a minute: %.0f WRU/s served, want the warm 4,000", u)
	}
	if u := total(1850); u < 6000-1e-6 {
		t.Errorf("after 30 minutes: %.0f WRU/s served, want all 6,000 (twice the 6,000 peak)", u)
	}
	n, isolated := e.tableOf("t", clock.UnixNano()).spaces[designs.MainTable].Count(), e.Measured(0, 0).Isolations
	if n-isolated != 16 {
		t.Errorf("after 30 minutes: %d partitions, %d of them isolated values; want 16 by hash (4 split twice to cover 12,000 WRU/s)", n, isolated)
	}
}
