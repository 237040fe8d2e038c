package lint

import (
	"fmt"
	"math"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// HotItemShare is the share of a write step's successful calls that must
// write one item for the lint to name it: a parent written by its few
// children stays below it, a counter or a set every call updates is at 1.
const HotItemShare = 0.5

// sourceHotItem is where AWS says that adaptive capacity can give a
// frequently written item a partition of its own, whose 1,000 WCU/s
// (ddbitem.PartitionWCU) it never passes: no split divides one item. The
// partition key value's ceiling is the same figure, which the guide states
// per partition key value; split for heat can spread a hot collection over
// more partitions, so only the item's holds however the table scales. A
// transaction writes each of its items twice (prepare and commit), so it
// spends twice the units on each, as the capacity ledger charges it.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html#isolate-frequent-access-items
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html
// https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling
const sourceHotItem = guide + "burst-adaptive-capacity.html#isolate-frequent-access-items"

// hotItems is the hot-item check: a write step whose calls, in a scenario,
// write one item on most of them, whether each call is for another entity
// (a counter or set of the whole table) or the scenario sends them all to
// one (an on-sale event's seat counter). One item lives on one partition,
// so the pattern's rate is capped at a partition's write throughput divided
// by what each call writes to the item. An item hot in several scenarios
// is named once, with the figures of the first.
func (l *linter) hotItems() {
	var fs []Finding
	at := map[[2]string]int{} // (pattern, item) → its finding in fs
	for _, pr := range l.probes {
		for _, r := range pr.hot {
			id := [2]string{string(pr.pattern), r.key}
			if i, ok := at[id]; ok {
				fs[i].Names["scenarios"] = append(fs[i].Names["scenarios"], pr.scenario)
				continue
			}
			item, key := max(r.itemWCU, 1), max(r.keyWCU, 1)
			at[id] = len(fs)
			fs = append(fs, Finding{Target: Table, Pattern: pr.pattern, Check: CheckHotItem, Pool: pr.pool, Scenario: pr.scenario, Transactional: pr.tx,
				Limit: Limit{Values: []Quantity{{ddbitem.PartitionWCU, "WCU/s per partition, which one item cannot pass"}}, Source: sourceHotItem},
				Keys:  []KeyFigure{{Key: r.key}},
				Measured: map[string]int{"made": pr.calls, "calls": pr.ok, "rewrites": r.wrote, "keys": r.drew, "key_space": pr.space,
					"wcu_per_call": int(math.Ceil(item)), "calls_per_second_at_limit": int(ddbitem.PartitionWCU / item),
					"key_wcu_per_call": int(math.Ceil(key)), "key_calls_per_second_at_limit": int(ddbitem.PartitionWCU / key)},
				Names: map[string][]string{"scenarios": {pr.scenario}, "partition_key": {r.pk}},
			})
			if pr.entity != "" {
				fs[len(fs)-1].Names["pool"] = []string{pr.entity}
			}
		}
	}
	for _, f := range fs {
		l.add(f)
	}
}

// notProbed lists every write pattern the hot-item check could not
// measure, in a scenario or in all of them, with why: the check never
// passes over a pattern in silence.
func (l *linter) notProbed() {
	for _, pr := range l.probes {
		if pr.failure == "" {
			continue
		}
		f := Finding{Target: Table, Pattern: pr.pattern, Check: CheckNotProbed, Pool: pr.pool, Scenario: pr.scenario,
			Limit: Limit{Values: []Quantity{{MinEntries, fmt.Sprintf("successful calls of %d to judge a pattern", probeCalls)}}},
			Names: map[string][]string{"error": {pr.failure}}}
		if pr.calls > 0 {
			f.Measured = map[string]int{"calls": pr.calls, "succeeded": pr.ok}
		}
		l.add(f)
	}
}
