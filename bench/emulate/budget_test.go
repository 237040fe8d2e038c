package emulate

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// TestBudgetRefusalsHaveRows: a table's budget that refuses gets a row of
// its own beside its partitions' rows, and the rows' refusals add up to
// every attempt refused. At 1 % of real limits a new on-demand table
// serves 40 WRU/s, here on 8 partitions of 10 WCU/s each: HOT asks 15
// WCU/s of its partition, and six values on other partitions 7 WCU/s
// each, 57 in all, so both the budget and HOT's partition refuse.
func TestBudgetRefusalsHaveRows(t *testing.T) {
	const secs, ticks = 10, 20
	e, clock := newAt(designs.Schema{PK: "PK"}, Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 8}})
	rates := map[string]int{"HOT": 15}
	taken := map[int]bool{Placement("HOT", 8): true}
	for i := 0; len(rates) < 7; i++ {
		k := fmt.Sprintf("K%d", i)
		if p := Placement(k, 8); !taken[p] {
			taken[p] = true
			rates[k] = 7
		}
	}
	var requests int64
	for tick := range secs * ticks {
		for _, key := range slices.Sorted(maps.Keys(rates)) {
			n := rates[key]
			// n calls a second of 1 WCU each, spread over the ticks.
			for range (tick%ticks+1)*n/ticks - (tick%ticks)*n/ticks {
				send(e, "AP-01", key, 1)
				requests++
			}
		}
		*clock = clock.Add(time.Second / ticks)
	}

	m := e.Measured(requests, secs*time.Second)
	var budget, parts int64
	for _, p := range m.Partitions {
		parts += p.Refused
		if p.Reason != "TableWriteKeyRangeThroughputExceeded" {
			t.Errorf("partition row %+v: want the reason its refusals answered, TableWriteKeyRangeThroughputExceeded", p)
		}
	}
	for _, b := range m.Budgets {
		if b.Target != designs.MainTable || b.Budget != BudgetWarm || b.Side != "write" || b.Reason != "TableWriteKeyRangeThroughputExceeded" {
			t.Errorf("budget row %+v: want the table's warm throughput, writes, the reason its refusals answered", b)
		}
		if b.ThrottledSeconds == 0 || b.First.IsZero() || b.FirstSecond < 0 {
			t.Errorf("budget row %+v: want its first refusal and the seconds it refused", b)
		}
		budget += b.Refused
	}
	if budget == 0 || parts == 0 {
		t.Fatalf("refused by the budget %d, by partitions %d, of %d: the spec means both to refuse; budgets %+v", budget, parts, m.Refused, m.Budgets)
	}
	if budget+parts != m.Refused {
		t.Errorf("the rows refused %d attempts (budget %d, partitions %d), the run %d: want every refusal in a row", budget+parts, budget, parts, m.Refused)
	}

	// Two shards' budget rows merge into one, their refusals summed.
	merged := MergeThrottling(m, m).Budgets
	if want := (BudgetThrottles{Target: designs.MainTable, Budget: BudgetWarm, Side: "write", Reason: "TableWriteKeyRangeThroughputExceeded", First: m.Budgets[0].First,
		FirstSecond: m.Budgets[0].FirstSecond, ThrottledSeconds: m.Budgets[0].ThrottledSeconds, Refused: 2 * budget}); len(merged) != 1 || merged[0] != want {
		t.Errorf("two shards' budgets merged: %+v, want %+v", merged, want)
	}
}
