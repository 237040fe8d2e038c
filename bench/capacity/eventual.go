package capacity

import (
	"fmt"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// EventualText is what the report says of a key whose partition's limit
// is set by eventually consistent reads: AWS was measured serving one key
// half as much again as the partition limit the model gives (the engine
// serves a partition's reads whatever their consistency: the charges and
// the ledger keep none per key).
var EventualText = fmt.Sprintf("Its reads are eventually consistent: one key read so was measured served at about %s RCU/s in its first ten minutes, "+
	"not %s (%s), so this rate may be a third low",
	figure.Thousands(ddbitem.EventualKeyRCU), figure.Thousands(ddbitem.PartitionRCU),
	"https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/")

// readsBind reports whether u units per second reach a partition's read
// limit before its write limit.
func (r *run) readsBind(u usage) bool {
	lim := r.partitionLimit()
	return u.rcu > 0 && u.rcu/lim.rcu >= u.wcu/lim.wcu
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
	for k, p := range r.l.patterns {
		if k.Pattern == pattern {
			rcu, eventual = rcu+p.RCU, eventual+p.EventualRCU
		}
	}
	return eventual > rcu/2
}
