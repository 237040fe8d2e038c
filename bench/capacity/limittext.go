package capacity

import (
	"fmt"

	"github.com/ddbharness/ddbharness/internal/figure"
)

// partitionLimitText names the per-partition limit in reports, and the
// scale when it is not DynamoDB's own.
func (r *run) partitionLimitText() string {
	lim := r.partitionLimit()
	return fmt.Sprintf("%s RCU/s or %s WCU/s per partition%s", figure.Thousands(lim.RCU), figure.Thousands(lim.WCU), scaleText(r.scale()))
}

// scaleText says that limits were scaled, and by what.
func scaleText(k float64) string {
	if k == 1 {
		return ""
	}
	return fmt.Sprintf(" (DynamoDB's limits × %g)", k)
}

// tableLimitText names the table-level limit a target reaches.
func (r *run) tableLimitText(write bool) string {
	lim, side := r.tableLimit(), "RCU"
	n := lim.RCU
	if write {
		side, n = "WCU", lim.WCU
	}
	what := "on-demand table quota"
	switch {
	case r.provisioned():
		what = "provisioned"
	case write && r.MaxWrites > 0, !write && r.MaxReads > 0:
		what = "on-demand maximum throughput"
	}
	return fmt.Sprintf("%s %s/s %s%s", figure.Thousands(n), side, what, scaleText(r.scale()))
}
