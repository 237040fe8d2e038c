package capacity

import (
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/designs"
)

// Holds is how long each pattern's calls hold their items on real
// DynamoDB: Transaction for every pattern (0: rules.DefaultTransactionHold),
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
	return rules.DefaultTransactionHold, false
}

// hold is how long a transaction of pattern p holds an item (Holds.Of).
func (m Model) hold(p designs.PatternID) (time.Duration, bool) {
	return Holds{m.TransactionHold, m.PatternHold}.Of(p)
}

// holdSource is the Source of a conflict limit whose pattern holds as
// declared says: the service's measured hold, or the scenario's own.
func holdSource(declared bool) *rules.Source {
	if declared {
		return rules.Cite("conflict-ceiling")
	}
	return rules.Cite("conflict-ceiling", "transaction-hold")
}
