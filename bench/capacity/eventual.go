package capacity

import (
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
)

// readsBind reports whether u units per second reach a partition's read
// limit before its write limit.
func (r *run) readsBind(u ledger.Usage) bool {
	lim := r.partitionLimit()
	return u.RCU > 0 && u.RCU/lim.RCU >= u.WCU/lim.WCU
}

// eventualReads reports whether the reads of pattern on space are
// eventually consistent: a GSI serves no other; on the table, most of the
// pattern's read units were (the ledger keeps consistency by pattern, not
// by key).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html (GSIs support eventually consistent reads only)
func (r *run) eventualReads(space string, pattern designs.PatternID) bool {
	if space != designs.MainTable {
		return true
	}
	var rcu, eventual float64
	for k, p := range r.l.Patterns() {
		if k.Pattern == pattern {
			rcu, eventual = rcu+p.RCU, eventual+p.EventualRCU
		}
	}
	return eventual > rcu/2
}
