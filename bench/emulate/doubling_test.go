// A 30-minute simulation in one goroutine: make faults runs it (build tag
// heavy, see newkey_mem_test.go).

//go:build heavy && !race

package emulate

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddbharness/ddbharness/designs"
)

// TestOnDemandDoubling: a new on-demand table serves its warm 4,000 WRU/s;
// 6,000 WRU/s spread over many values is held near there at first, then,
// what it serves growing toward double itself over 30 minutes, served in
// full before the 30 minutes are out, on the partitions the table split
// into as it grew (its allowance past 8,000 WRU/s by then): its own, not
// a count the spec sets.
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
		t.Errorf("after 30 minutes: %.0f WRU/s served, want all 6,000 (under twice the 4,000 served)", u)
	}
	n, isolated := e.tableOf("t", clock.UnixNano()).spaces[designs.MainTable].Count(), e.Measured(0, 0).Isolations
	if n-isolated != 16 {
		t.Errorf("after 30 minutes: %d partitions, %d of them isolated values; want 16 by hash (4 split twice to cover more than 8,000 WRU/s)", n, isolated)
	}
}
