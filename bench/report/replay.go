package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity"
)

// replay writes, for a run with the limits off, where the throughput
// engine the emulator runs would have refused this run's hot keys, second
// by second: the same rules the emulated limits apply live.
func (p *printer) replay(r *capacity.Replay) {
	if r == nil {
		return
	}
	p.f("## Throttling, replayed\n\n")
	if len(r.Partitions) == 0 {
		p.f("The limits were off. Replayed second by second through the throughput engine the emulated limits run, this run's hot partition keys were refused nowhere.\n\n")
		return
	}
	p.f("The limits were off. Replayed second by second through the throughput engine the emulated limits run (the same partitions, placement and budgets), this run's hot partition keys would have been refused here (seconds from the first charge). Each key is replayed on its own: where calls span partitions (transactions, batches), a call refused on one partition spends nothing on the others under the emulated limits, so the replay refuses more.\n\n")
	var rows [][]string
	for _, pt := range r.Partitions {
		var spans []string
		for _, s := range pt.Ranges {
			from, to := s.From-r.First, s.To-r.First
			if from == to {
				spans = append(spans, strconv.FormatInt(from, 10))
			} else {
				spans = append(spans, fmt.Sprintf("%d–%d", from, to))
			}
		}
		part := strconv.Itoa(pt.Partition)
		if pt.Partition < 0 {
			part = "its budget"
		}
		rows = append(rows, []string{targetName(pt.Target), part, code(strings.Join(pt.Keys, ", ")), pt.Side,
			strings.Join(spans, ", "), fmt.Sprintf("%.1f%%", 100*pt.Refused)})
	}
	p.table("llllll", []string{"Target", "Partition", "Hot keys", "Side", "Seconds refused", "Units refused"}, rows)
	if r.Isolations > 0 {
		p.f("Hot partition key values isolated on partitions of their own after their partition stayed hot (split for heat), as the emulated limits isolate them: %d.\n\n", r.Isolations)
	}
}
