package capacity

import (
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// eventualText says of a key whose partition's limit is set by eventually
// consistent reads that AWS was measured serving one key half as much
// again as the partition limit the model gives (the engine serves a
// partition's reads whatever their consistency: the charges and the
// ledger keep none per key). On the table, that its reads are eventually
// consistent is read from its pattern's (eventualReads), and says so.
func eventualText(c *claim, space string) {
	c.say(". Its reads are eventually consistent")
	if space == designs.MainTable {
		c.rests(Cite("eventual-by-pattern")).mark()
	}
	c.say(": one key read so was measured served at about %s RCU/s in its first ten minutes, not %s, so this rate may be a third low",
		cited(Cite("eventual-key"), figure.Thousands(ddbitem.EventualKeyRCU)), cited(Cite("partition-reads"), figure.Thousands(ddbitem.PartitionRCU)))
}

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
