package capacity

import (
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

// DefaultTransactionHold is how long a transaction is taken to hold the
// items it writes on real DynamoDB: the p50 latency of a TransactWriteItems
// of five items measured on the service from AWS Lambda in the table's
// Region (25.3 ms; 32.1 ms for 25 items; a PutItem 7.55 ms). A call's
// latency seen by its client bounds the time the service holds its items
// from above, so the conflict limit it gives errs low. It does not depend
// on the machine that runs the harness, whose own hold (Model.TestBedHold)
// grows with its load.
// Source: https://github.com/alexdebrie/dynamodb-performance-testing/tree/master/put-batch-transaction-performance
// (results table; the method in https://www.alexdebrie.com/posts/dynamodb-transactions-performance/)
const DefaultTransactionHold = 25300 * time.Microsecond

// Holds is how long each pattern's calls hold their items on real
// DynamoDB: Transaction for every pattern (0: DefaultTransactionHold),
// Pattern a pattern's own in its place. The capacity model's conflict
// limit and the limits emulator's conflicts both read it through Of, so
// a run's live conflicts and its forecast rest on one figure.
type Holds struct {
	Transaction time.Duration
	Pattern     map[designs.PatternID]time.Duration
}

// Of is how long a call of pattern p holds an item, and whether the
// scenario declared it rather than taking the service's measurement.
func (h Holds) Of(p designs.PatternID) (time.Duration, bool) {
	if d, ok := h.Pattern[p]; ok && d > 0 {
		return d, true
	}
	if h.Transaction > 0 {
		return h.Transaction, true
	}
	return DefaultTransactionHold, false
}

// hold is how long a transaction of pattern p holds an item (Holds.Of).
func (m Model) hold(p designs.PatternID) (time.Duration, bool) {
	return Holds{m.TransactionHold, m.PatternHold}.Of(p)
}

// holdSource is the Source of a conflict limit whose pattern holds as
// declared says: the service's measured hold, or the scenario's own.
func holdSource(declared bool) *Source {
	if declared {
		return Cite("conflict-ceiling")
	}
	return Cite("conflict-ceiling", "transaction-hold")
}
