package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
)

// report compare's first line is the first limit before → after: kind,
// where, rate, side and DynamoDB's reason of each.
func TestFirstLimitMoveShowsBothRuns(t *testing.T) {
	base, next := Run{Dir: "a", Out: run()}, Run{Dir: "b", Out: run()}
	base.Out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitPartition, Target: "GSI1", Key: "X", Rate: 120,
		Side: capacity.SideWrite, Reason: "IndexWriteKeyRangeThroughputExceeded", BackPressure: true}
	next.Out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitBudget, Target: designs.MainTable, Rate: 900,
		Side: capacity.SideWrite, Reason: "TableWriteAccountLimitExceeded"}
	want := "first limit: partition GSI1 key X at 120 requests/s (writes, IndexWriteKeyRangeThroughputExceeded, back-pressure: it throttles the table's writes too) → " +
		"budget table at 900 requests/s (writes, TableWriteAccountLimitExceeded)"
	if got := FirstLimitMove(base, next); got != want {
		t.Errorf("FirstLimitMove =\n%s\nwant\n%s", got, want)
	}
}

// A metrics.json written before limits named their reasons, or before
// first limits were recorded, is still read: the line shows its first
// throttle and says what the file lacks.
func TestFirstLimitMoveReadsOlderMetrics(t *testing.T) {
	dir := t.TempDir()
	old := `{"scenario": "shop/browse", "started": "2026-05-22T10:15:00Z", "total": {"requests": 10},
		"capacity": {"billing": "on-demand", "ceiling": {"target": "main-table", "key": "CLIENT#1", "limit": "1,000 WCU/s per partition", "rate": 571, "factor": 28.6}}}`
	if err := os.WriteFile(filepath.Join(dir, report.MetricsFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, report.ResultsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRun(t.Context(), dir)
	if err != nil {
		t.Fatalf("ReadRun of an older metrics.json: %v", err)
	}
	next := Run{Dir: "b", Out: run()}
	next.Out.Capacity.FirstLimit = &capacity.Limit{Kind: capacity.LimitPartition, Target: designs.MainTable, Key: "CLIENT#1", Rate: 571,
		Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded"}
	got := FirstLimitMove(r, next)
	want := "first limit: partition table key CLIENT#1 at 571 requests/s [its first throttle: " + dir + "'s metrics.json records no first limit]" +
		" [no reason: " + dir + "'s metrics.json was written before limits named theirs] → partition table key CLIENT#1 at 571 requests/s (writes, TableWriteKeyRangeThroughputExceeded)"
	if got != want {
		t.Errorf("FirstLimitMove =\n%s\nwant\n%s", got, want)
	}
	c := Run{Dir: "c", Out: run()}
	c.Out.Capacity.Ceiling.Target = designs.MainTable
	if got := FirstLimitMove(c, next); !strings.HasPrefix(got, "first limit: budget table at 300 requests/s [its first throttle: c's metrics.json records no first limit] [no reason:") {
		t.Errorf("FirstLimitMove from a ceiling without a key = %s", got)
	}
}

// A fix that removes throttling is not a regression of units: before,
// four of AP-01's ten calls were throttled to the end and took no units,
// six served calls took 12 WCU; after, ten served calls take 20. Both are
// 2 WCU a served call, so --fail-on 'wcu>0%' passes.
func TestPerCallUnitsAreOverServedCalls(t *testing.T) {
	base, next := Run{Out: run()}, Run{Out: run()}
	base.Out.Capacity.Patterns[1].WCU = 12
	base.Out.Throttling = &emulate.Throttling{Patterns: []emulate.PatternThrottles{{Pattern: "AP-01", Calls: 10, Throttled: 3, ConflictCancelled: 1}}}
	next.Out.Throttling = &emulate.Throttling{Patterns: []emulate.PatternThrottles{{Pattern: "AP-01", Calls: 10}}}
	rows := Compare(base, next)
	if r := row(rows, "AP-01", "wcu"); r.Base != 2 || r.New != 2 || r.ChangeText() != "=" {
		t.Errorf("AP-01 wcu per served call: %+v %s, want 2 → 2", r, r.ChangeText())
	}
	rules, err := ParseFailOn("wcu>0%")
	if err != nil {
		t.Fatal(err)
	}
	if bad := Breaches(rows, rules); len(bad) != 0 {
		t.Errorf("breaches %q: a fix that removed the throttling is no regression", bad)
	}
	if f := PatternFigures(base.Out)["AP-01"]; f.Calls != 10 || f.Served != 6 {
		t.Errorf("AP-01 figures %+v, want 10 calls, 6 served", f)
	}
}
