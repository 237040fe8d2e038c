package report

import (
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/designs"
)

// An item whose transactions serialise, below every throughput limit,
// opens the headline's limits: its kind, the item, DynamoDB's reason, the
// pattern, the rate, inferred, and what to change; the first throttle
// follows.
func TestHeadlineNamesTheItemTransactionsSerialiseFirst(t *testing.T) {
	out := sample()
	out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitConflict, Target: designs.MainTable, Key: "EVENT#e00000", Item: "EVENT#e00000 / EVENT",
		Pattern: "TK-02", Rate: 44.5, HoldSeconds: 0.0112, Reason: capacity.ReasonConflict, Change: "shard the counter", Source: rules.Cite("conflict-ceiling")}
	h := Headline(out)
	want := "; first limit: conflict limit on item EVENT#e00000 / EVENT, driven by TK-02, at 44.5 requests/s (TransactionConflict; one transaction at a time, each holding it about 11.2 ms) [inferred: conflict-ceiling]: shard the counter; first throttle forecast: table CLIENT#1 at 571 requests/s"
	if !strings.Contains(h, want) {
		t.Errorf("Headline = %q\nwant it to hold %q", h, want)
	}
}

// The headline's first limit says, for every kind, where it is, the side
// that binds, the reason DynamoDB would give, back-pressure when a GSI's
// writes stop the table's, and the advice that fits it.
func TestHeadlineFirstLimitSaysTheCause(t *testing.T) {
	placed := rules.Cite("partitions-on-demand", "placement", "hot-keys", "light-keys")
	for _, c := range []struct {
		name  string
		limit capacity.Limit
		want  string
	}{
		{"GSI partition, writes", capacity.Limit{Kind: capacity.LimitPartition, Target: "GSI1", Key: "OWNER#1", Pattern: "AP-07", Rate: 120,
			Side: capacity.SideWrite, Reason: "IndexWriteKeyRangeThroughputExceeded", BackPressure: true, KeyShare: 1, Source: placed,
			Change: "spread the key's traffic over more partition key values (write sharding)"},
			"; first limit: partition GSI1 key OWNER#1, driven by AP-07, at 120 requests/s (writes, IndexWriteKeyRangeThroughputExceeded, back-pressure: it throttles the table's writes too) [inferred: partitions-on-demand, placement, hot-keys, light-keys]: spread the key's traffic over more partition key values (write sharding); first throttle"},
		{"table partition, reads", capacity.Limit{Kind: capacity.LimitPartition, Target: designs.MainTable, Key: "HOT", Rate: 3000,
			Side: capacity.SideRead, Reason: "TableReadKeyRangeThroughputExceeded", KeyShare: 1, Source: placed, Change: "spread the key's reads"},
			"; first limit: partition table key HOT, at 3000 requests/s (reads, TableReadKeyRangeThroughputExceeded) [inferred: partitions-on-demand, placement, hot-keys, light-keys]: spread the key's reads; first throttle"},
		{"spread partition", capacity.Limit{Kind: capacity.LimitPartition, Target: designs.MainTable, Key: "SHARD#07", Rate: 8331,
			Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded", KeyShare: 0.05, Source: placed, Change: "raise the table's warm throughput"},
			"; first limit: partition table key SHARD#07, spread: SHARD#07 carries 5% of its partition's load, at 8331 requests/s (writes, TableWriteKeyRangeThroughputExceeded) [inferred: partitions-on-demand, placement, hot-keys, light-keys]: raise the table's warm throughput; first throttle"},
		{"provisioned budget", capacity.Limit{Kind: capacity.LimitBudget, Target: designs.MainTable, Rate: 900,
			Side: capacity.SideWrite, Reason: "TableWriteProvisionedThroughputExceeded", Source: rules.Cite("quota-writes"), Change: "raise the table's provisioned write throughput"},
			"; first limit: budget table, at 900 requests/s (writes, TableWriteProvisionedThroughputExceeded) [documented: quota-writes]: raise the table's provisioned write throughput; first throttle"},
		{"item", capacity.Limit{Kind: capacity.LimitItem, Target: designs.MainTable, Key: "EVENT#1", Item: "EVENT#1 / EVENT", Pattern: "AP-01", Rate: 1000,
			Limit: "1,000 WCU/s on one item", Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded", Source: rules.Cite("item-ceiling"), Change: "spread the item's traffic"},
			"; first limit: item limit on item EVENT#1 / EVENT, driven by AP-01, at 1000 requests/s (writes, TableWriteKeyRangeThroughputExceeded; 1,000 WCU/s on one item) [documented: item-ceiling]: spread the item's traffic; first throttle"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := sample()
			out.Capacity.FirstLimit = &c.limit
			if h := Headline(out); !strings.Contains(h, c.want) {
				t.Errorf("Headline = %q\nwant it to hold %q", h, c.want)
			}
		})
	}
}

// Limits within 5% of the first are named tied with it, with their side
// and reason: another run may reach one of them first.
func TestHeadlineNamesTheLimitsTiedWithTheFirst(t *testing.T) {
	out := sample()
	l := out.Capacity.LimitsInOrder[0]
	l.Tied = []capacity.Tie{
		{Kind: capacity.LimitBudget, Target: designs.MainTable, Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded", Rate: 580},
		{Kind: capacity.LimitPartition, Target: "GSI1", Key: "INVOICE#9", Side: capacity.SideWrite, Reason: "IndexWriteKeyRangeThroughputExceeded", Rate: 590},
	}
	out.Capacity.FirstLimit = &l
	want := "at 571 requests/s (writes, TableWriteKeyRangeThroughputExceeded) [inferred: partitions-on-demand, placement, hot-keys, light-keys]; tied within 5% with budget table at 580 requests/s (writes, TableWriteKeyRangeThroughputExceeded), " +
		"partition GSI1 key INVOICE#9 at 590 requests/s (writes, IndexWriteKeyRangeThroughputExceeded) [inferred: limit-tie]: spread the key's traffic"
	if h := Headline(out); !strings.Contains(h, want) {
		t.Errorf("Headline = %q\nwant it to hold %q", h, want)
	}
	if h := Headline(sample()); strings.Contains(h, "tied") {
		t.Errorf("Headline = %q names a tie the first limit has not", h)
	}
}

// summary.md names the reason of the first limit and of the first
// throttle, and metrics.json carries them on both.
func TestSummaryAndMetricsCarryTheReasons(t *testing.T) {
	f := files(t, sample())
	contains(t, SummaryFile, f[SummaryFile],
		"it binds on the write side, where DynamoDB answers TableWriteKeyRangeThroughputExceeded (CloudWatch counts it in WriteKeyRangeThroughputThrottleEvents) [documented: throttling-reason, throttling-metrics]",
		"driven mostly by AP-03, on its write side, where DynamoDB answers TableWriteKeyRangeThroughputExceeded",
		"the table's own throughput at 16,000 requests/s (TableWriteAccountLimitExceeded)")
	m := metricsOf(t, f[MetricsFile])
	c, _ := m["capacity"].(map[string]any)
	first, _ := c["first_limit"].(map[string]any)
	ceiling, _ := c["ceiling"].(map[string]any)
	for what, v := range map[string]map[string]any{"first_limit": first, "ceiling": ceiling} {
		if v["side"] != "write" || v["reason"] != "TableWriteKeyRangeThroughputExceeded" || v["cloudwatch_metric"] != "WriteKeyRangeThroughputThrottleEvents" {
			t.Errorf("metrics.json capacity.%s = %v, want side, reason and cloudwatch_metric", what, v)
		}
	}
}
