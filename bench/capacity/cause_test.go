package capacity

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// Every table key is its own, but every item carries the same owner on
// the GSI: the GSI's partition of that owner is the first limit, on its
// write side, which DynamoDB names IndexWriteKeyRangeThroughputExceeded
// and counts in WriteKeyRangeThroughputThrottleEvents; as a GSI's writes
// it throttles the table's writes too (back-pressure), and the advice is
// to shard that key.
func TestFirstLimitNamesAGSIWritePartitionsReasonAndBackPressure(t *testing.T) {
	byOwner := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByOwner", PK: "O", SK: "OS"}}}
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, put(fmt.Sprintf("K%d", i), "O", s("OWNER#1"), "OS", s(fmt.Sprint(i))))
	}
	r := analyze(Model{Schema: byOwner, Duration: 10 * time.Second}, calls...)
	f := r.FirstLimit
	if f == nil || f.Kind != LimitPartition || f.Target != "ByOwner" || f.Key != "OWNER#1" {
		t.Fatalf("first limit %+v, want the ByOwner partition of OWNER#1", f)
	}
	if f.Side != SideWrite || f.Reason != "IndexWriteKeyRangeThroughputExceeded" || f.Metric != "WriteKeyRangeThroughputThrottleEvents" || !f.BackPressure {
		t.Errorf("first limit's cause: side %q, reason %q, metric %q, back-pressure %v; want write, IndexWriteKeyRangeThroughputExceeded, WriteKeyRangeThroughputThrottleEvents, true",
			f.Side, f.Reason, f.Metric, f.BackPressure)
	}
	if c := r.Ceiling; c == nil || c.Reason != f.Reason || c.Side != SideWrite || c.Metric != f.Metric {
		t.Errorf("ceiling %+v, want the same side, reason and metric as the first limit", c)
	}
	if !strings.Contains(f.Change, "write sharding") || f.Spread() {
		t.Errorf("change %q (spread %v), want the key sharded: it carries all of its partition's load", f.Change, f.Spread())
	}
}

// One key's reads fill its table partition: the read side, named
// TableReadKeyRangeThroughputExceeded, no back-pressure, and the advice
// speaks of reads.
func TestFirstLimitOnReadsNamesTheReadSide(t *testing.T) {
	item := sized("HOT", "A", 4000)
	calls := repeat(100, pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{item}, Consistent: true})
	r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, calls...)
	f := r.FirstLimit
	if f == nil || f.Kind != LimitPartition || f.Side != SideRead || f.Reason != "TableReadKeyRangeThroughputExceeded" || f.Metric != "ReadKeyRangeThroughputThrottleEvents" || f.BackPressure {
		t.Fatalf("first limit %+v, want HOT's partition on its read side, TableReadKeyRangeThroughputExceeded, no back-pressure", f)
	}
	if !strings.Contains(f.Change, "reads") || strings.Contains(f.Change, "write sharding") {
		t.Errorf("change %q, want the reads spread or cached", f.Change)
	}
}

// Writes spread evenly over many keys: the table's own limit names the
// reason of its billing: provisioned throughput, an on-demand maximum,
// else the account's per-table quota; each with its own advice.
func TestBudgetLimitNamesTheReasonOfItsBilling(t *testing.T) {
	var calls []pricing.Observation
	for i := range 200 {
		calls = append(calls, put(fmt.Sprintf("K%d", i)))
	}
	for _, c := range []struct {
		name   string
		m      Model
		reason string
		metric string
		change string
	}{
		{"provisioned", Model{Schema: designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 100, WCU: 10}},
			"TableWriteProvisionedThroughputExceeded", "WriteThrottleEvents", "raise the table's provisioned write throughput"},
		{"maximum", Model{Schema: schema, Settings: throughput.Settings{MaxWrites: 10}},
			"TableWriteMaxOnDemandThroughputExceeded", "WriteMaxOnDemandThroughputThrottleEvents", "raise the table's maximum write throughput"},
		{"quota", Model{Schema: schema},
			"TableWriteAccountLimitExceeded", "WriteAccountLimitThrottleEvents", "per-table write quota"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.m.Duration = 10 * time.Second
			r := analyze(c.m, calls...)
			var b *Limit
			for i, l := range r.LimitsInOrder {
				if l.Kind == LimitBudget {
					b = &r.LimitsInOrder[i]
				}
			}
			if b == nil || b.Side != SideWrite || b.Reason != c.reason || b.Metric != c.metric || !strings.Contains(b.Change, c.change) {
				t.Errorf("budget limit %+v, want write side, %s, %s, change %q", b, c.reason, c.metric, c.change)
			}
		})
	}
}

// Three partitions within 5% of each other: the first names the other two
// tied, lowest first, and not the fourth, 20% further; the finding says
// another run may reach one of them first.
func TestFirstLimitNamesTheLimitsTiedWithIt(t *testing.T) {
	placed := map[string]int{"A": 0, "B": 1, "C": 2, "D": 3}
	var calls []pricing.Observation
	for key, n := range map[string]int{"A": 100, "B": 98, "C": 96, "D": 80} {
		calls = append(calls, spreadPuts(key, n)...)
	}
	m := Model{Schema: schema, Duration: 10 * time.Second, Placed: func(space, key string) (int, int) { return placed[key], 4 }}
	r := analyze(m, calls...)
	f := r.FirstLimit
	if f == nil || f.Key != "A" {
		t.Fatalf("first limit %+v, want A's partition", f)
	}
	var tied []string
	for _, x := range f.Tied {
		tied = append(tied, x.Kind+" "+x.Key+" "+x.Reason)
	}
	if want := "partition B TableWriteKeyRangeThroughputExceeded, partition C TableWriteKeyRangeThroughputExceeded"; strings.Join(tied, ", ") != want {
		t.Errorf("tied %q, want %q", strings.Join(tied, ", "), want)
	}

	// Far apart, no tie is named.
	calls = append(spreadPuts("A", 100), spreadPuts("B", 50)...)
	if r := analyze(m, calls...); r.FirstLimit == nil || len(r.FirstLimit.Tied) != 0 {
		t.Errorf("first limit %+v names ties at half the load", r.FirstLimit)
	}
}

// A write-sharded design: twenty shard keys of equal traffic, all on one
// partition. The partition is the first limit, but its named key carries a
// twentieth of it: the traffic is spread, so the advice is more partitions
// (warm or provisioned throughput), never sharding that key.
func TestSpreadPartitionIsAdvisedMorePartitionsNotSharding(t *testing.T) {
	var calls []pricing.Observation
	for i := range 20 {
		calls = append(calls, repeat(10, put(fmt.Sprintf("SHARD#%02d", i)))...)
	}
	for _, c := range []struct {
		schema designs.Schema
		change string
	}{
		{schema, "raise the table's warm throughput"},
		{designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 30000, WCU: 10000}, "raise the table's provisioned throughput"},
	} {
		m := Model{Schema: c.schema, Duration: 10 * time.Second, TopN: 20, Placed: func(space, key string) (int, int) { return 0, 4 }}
		r := analyze(m, calls...)
		f := r.FirstLimit
		if f == nil || f.Kind != LimitPartition || !near(f.KeyShare, 0.05) || !f.Spread() {
			t.Fatalf("%s: first limit %+v, want a partition whose key carries 5%% of it", c.schema.Billing, f)
		}
		if !strings.Contains(f.Change, c.change) || strings.Contains(f.Change, "write sharding") {
			t.Errorf("%s: change %q, want %q and no sharding of one key", c.schema.Billing, f.Change, c.change)
		}
	}
}

// Three write shards of equal traffic on one partition carry a third of
// it each: spread. Two hot keys that share a partition carry half each,
// as accountpool's status keys do: each drives it, shard it. A key that
// carries three fifths of its partition drives it too.
func TestSpreadStartsAtAThirdOfThePartition(t *testing.T) {
	m := Model{Schema: schema, Duration: 10 * time.Second, Placed: func(space, key string) (int, int) { return 0, 4 }}
	r := analyze(m, append(append(spreadPuts("SHARD#0", 50), spreadPuts("SHARD#1", 50)...), spreadPuts("SHARD#2", 50)...)...)
	if f := r.FirstLimit; f == nil || !near(f.KeyShare, 1.0/3) || !f.Spread() || strings.Contains(f.Change, "write sharding") {
		t.Errorf("three equal shards: first limit %+v, want spread at a third each, advised more partitions", f)
	}
	r = analyze(m, append(spreadPuts("SHARD#0", 50), spreadPuts("SHARD#1", 50)...)...)
	if f := r.FirstLimit; f == nil || !near(f.KeyShare, 0.5) || f.Spread() || !strings.Contains(f.Change, "write sharding") {
		t.Errorf("two hot keys on one partition: first limit %+v, want the key sharded at half each", f)
	}
	r = analyze(m, append(spreadPuts("HOT", 60), spreadPuts("COLD", 40)...)...)
	if f := r.FirstLimit; f == nil || f.Key != "HOT" || !near(f.KeyShare, 0.6) || f.Spread() || !strings.Contains(f.Change, "write sharding") {
		t.Errorf("a key at three fifths: first limit %+v, want HOT sharded", f)
	}
}
