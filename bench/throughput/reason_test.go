package throughput

import "testing"

// The reasons are AWS's: resource, side and limit type, as the
// ThrottlingReason page's own examples spell them, each counted in its
// CloudWatch metric; sixteen reasons in all, every one with a metric.
func TestReasonsAreAWSsAndEachHasItsMetric(t *testing.T) {
	if got := Reason(false, Read, Provisioned); got != "TableReadProvisionedThroughputExceeded" {
		t.Errorf("Reason(table, read, provisioned) = %q", got)
	}
	if got := Reason(true, Write, AccountLimit); got != "IndexWriteAccountLimitExceeded" {
		t.Errorf("Reason(index, write, account) = %q", got)
	}
	for reason, metric := range map[string]string{
		"IndexWriteKeyRangeThroughputExceeded":    "WriteKeyRangeThroughputThrottleEvents",
		"TableReadKeyRangeThroughputExceeded":     "ReadKeyRangeThroughputThrottleEvents",
		"TableWriteProvisionedThroughputExceeded": "WriteThrottleEvents",
		"IndexReadMaxOnDemandThroughputExceeded":  "ReadMaxOnDemandThroughputThrottleEvents",
		"TableWriteAccountLimitExceeded":          "WriteAccountLimitThrottleEvents",
		"TransactionConflict":                     "",
	} {
		if got := ReasonMetric(reason); got != metric {
			t.Errorf("ReasonMetric(%q) = %q, want %q", reason, got, metric)
		}
	}
	seen := map[string]bool{}
	for _, index := range []bool{false, true} {
		for _, side := range []int{Read, Write} {
			for _, limit := range []string{KeyRange, Provisioned, MaxOnDemand, AccountLimit} {
				r := Reason(index, side, limit)
				if seen[r] || ReasonMetric(r) == "" {
					t.Errorf("reason %q: seen before %v, metric %q", r, seen[r], ReasonMetric(r))
				}
				seen[r] = true
			}
		}
	}
	if len(seen) != 16 {
		t.Errorf("%d reasons, want AWS's 16", len(seen))
	}
}
