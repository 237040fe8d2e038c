package report

import (
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// An item whose transactions serialise, below every throughput limit,
// opens the headline's limits: its kind, the item, the pattern, the
// rate, inferred, and what to change; the first throttle follows. A
// partition first is the first throttle alone, as before.
func TestHeadlineNamesTheItemTransactionsSerialiseFirst(t *testing.T) {
	out := sample()
	out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitConflict, Target: designs.MainTable, Key: "EVENT#e00000", Item: "EVENT#e00000 / EVENT",
		Pattern: "TK-02", Rate: 44.5, HoldSeconds: 0.0112, Change: "shard the counter", Source: capacity.Cite("conflict-ceiling")}
	h := Headline(out)
	want := "; first limit: conflict limit on item EVENT#e00000 / EVENT, driven by TK-02, at 44.5 requests/s (one transaction at a time, each holding it about 11.2 ms) [inferred: conflict-ceiling]: shard the counter; first throttle forecast: table CLIENT#1 at 571 requests/s"
	if !strings.Contains(h, want) {
		t.Errorf("Headline = %q\nwant it to hold %q", h, want)
	}
	out.Capacity.FirstLimit.Kind = capacity.LimitPartition
	if h := Headline(out); strings.Contains(h, "first limit") {
		t.Errorf("Headline = %q names a partition first limit apart from the first throttle", h)
	}
}
