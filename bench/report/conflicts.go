package report

import (
	"strconv"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/designs"
)

// conflicts writes the transaction conflicts the emulator answered: per
// pattern, item-level conflicts (as CloudWatch's TransactionConflict
// metric counts them), transactions cancelled and p99 with the caller's
// retries; and the items with the most.
func (p *printer) conflicts(out bench.Outcome) {
	t := out.Throttling
	if t == nil {
		return
	}
	p.f("## Transaction conflicts, emulated\n\n")
	switch {
	case t.ConflictsOff:
		p.f("Not emulated (CONFLICTS=off): as on DynamoDB Local, concurrent writes of one item all went through.\n\n")
		return
	case t.Conflicts == 0:
		p.f("None: no request touched an item while another request DynamoDB would conflict with was in flight on it.\n\n")
		return
	}
	p.f("DynamoDB refuses a write of an item an ongoing transaction holds (TransactionConflictException, or a transaction cancelled with reason TransactionConflict); DynamoDB Local runs one request at a time and never does. The emulator held each item from the moment it let a request through to its answer (the window is inferred). %d item-level conflicts; %d transactions cancelled for a conflict. ",
		t.Conflicts, t.ConflictCancelled)
	p99Head := "p99 with retries"
	if t.ClientRetries {
		p.f("The client retries a conflict as its own code does, out of sight; latencies are each attempt's.\n\n")
		p99Head = "p99"
	} else {
		p.f("The designs retry a conflict %d times, then report it as %q; latencies include those retries.\n\n", designs.ConflictRetries, designs.ErrTransactionConflict.Error())
	}
	p99 := p99s(out)
	var rows [][]string
	for _, pt := range t.Patterns {
		if pt.Conflicts == 0 {
			continue
		}
		rows = append(rows, []string{string(pt.Pattern), strconv.FormatInt(pt.Calls, 10), strconv.FormatInt(pt.Conflicts, 10),
			strconv.FormatInt(pt.ConflictCancelled, 10), p99(pt.Pattern)})
	}
	p.table("lrrrr", []string{"Pattern", "Requests", "Item conflicts", "Cancelled tx", p99Head}, rows)
	rows = rows[:0]
	for _, it := range t.ConflictItems {
		rows = append(rows, []string{code(it.Item), strconv.FormatInt(it.Conflicts, 10)})
	}
	p.f("Items with the most conflicts: one item takes one write at a time, however the table scales.\n\n")
	p.table("lr", []string{"Item", "Conflicts"}, rows)
}
