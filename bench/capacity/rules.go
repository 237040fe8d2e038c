package capacity

import (
	"cmp"
	"fmt"
	"github.com/ddbharness/ddbharness/ddbitem"
	"slices"
)

// partitionLimitText names the per-partition limit in reports.
const partitionLimitText = "3,000 RCU/s or 1,000 WCU/s per partition"

// tableLimitText names the table-level limit a target reaches.
func (r *run) tableLimitText(write bool) string {
	lim, side := r.tableLimit(), "RCU"
	n := lim.rcu
	if write {
		side, n = "WCU", lim.wcu
	}
	if r.provisioned() {
		return fmt.Sprintf("%s %s/s provisioned", thousands(n), side)
	}
	return fmt.Sprintf("%s %s/s on-demand table quota", thousands(n), side)
}

// limits lists the numbers the model applied, with their sources.
func limits() []Limit {
	const guide = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
	return []Limit{
		{"read unit (strongly consistent; half eventually consistent, double transactional)", readUnitBytes, "bytes", guide + "read-write-operations.html"},
		{"write unit (double transactional)", writeUnitBytes, "bytes", guide + "read-write-operations.html"},
		{"partition read throughput", ddbitem.PartitionRCU, "RCU/s", guide + "bp-partition-key-design.html"},
		{"partition write throughput", ddbitem.PartitionWCU, "WCU/s", guide + "bp-partition-key-design.html"},
		{"partition data", ddbitem.PartitionBytes, "bytes", guide + "HowItWorks.Partitions.html"},
		{"item size", ddbitem.MaxItemBytes, "bytes", guide + "ServiceQuotas.html#limits-items"},
		{"LSI item collection size", ddbitem.MaxCollectionBytes, "bytes", guide + "LSI.html#LSI.ItemCollections.SizeLimit"},
		{"burst capacity", ddbitem.BurstSeconds, "seconds of unused provisioned throughput", guide + "burst-adaptive-capacity.html"},
		{"on-demand table read quota", ddbitem.OnDemandTableRRU, "RRU/s", guide + "ServiceQuotas.html#default-limits-throughput"},
		{"on-demand table write quota", ddbitem.OnDemandTableWRU, "WRU/s", guide + "ServiceQuotas.html#default-limits-throughput"},
		{"new on-demand table reads", ddbitem.NewOnDemandRRU, "RRU/s", guide + "pre-warming-on-demand-capacity-mode.html"},
		{"new on-demand table writes", ddbitem.NewOnDemandWRU, "WRU/s", guide + "pre-warming-on-demand-capacity-mode.html"},
	}
}

// patterns lists the per-pattern usage and Local's disagreements, in
// pattern order.
func (r *run) patterns() ([]PatternUsage, []Disagreement) {
	var ps []PatternUsage
	for _, p := range r.l.patterns {
		ps = append(ps, *p)
	}
	slices.SortFunc(ps, func(a, b PatternUsage) int { return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op)) })
	var ds []Disagreement
	for _, d := range r.l.diffs {
		if d.Differing > 0 {
			ds = append(ds, *d)
		}
	}
	slices.SortFunc(ds, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Op, b.Op), byTarget(a.Target, b.Target))
	})
	return ps, ds
}

// thousands renders n rounded to a whole number with thousands separators.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
