package throughput

// The limit types of DynamoDB's throttling reasons: why a request was
// throttled. A reason is the resource type (Table or Index), the side
// (Read or Write) and one of these, as Reason builds it.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
const (
	// KeyRange: a partition's own throughput, in both billing modes.
	KeyRange = "KeyRangeThroughputExceeded"
	// Provisioned: a provisioned table's or GSI's throughput.
	Provisioned = "ProvisionedThroughputExceeded"
	// MaxOnDemand: the maximum throughput set on an on-demand table or GSI.
	MaxOnDemand = "MaxOnDemandThroughputExceeded"
	// AccountLimit: the account's per-table quota on an on-demand table or GSI.
	AccountLimit = "AccountLimitExceeded"
)

// Reason names a throttling reason as DynamoDB's ThrottlingReasons do:
// "Index" for a GSI, else "Table"; "Write" for side Write, else "Read";
// then the limit type, one of KeyRange, Provisioned, MaxOnDemand and
// AccountLimit. The emulator answers with it and the capacity model
// names its limits with it, so both say the same.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
func Reason(index bool, side int, limit string) string {
	r := "Table"
	if index {
		r = "Index"
	}
	if side == Write {
		return r + "Write" + limit
	}
	return r + "Read" + limit
}

// reasonMetrics is the CloudWatch metric that counts the throttled events
// of each limit type, by side. A provisioned limit's events are counted in
// ReadThrottleEvents and WriteThrottleEvents, the others in metrics of
// their own, added with the reasons.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling-cloudwatch.html
var reasonMetrics = map[string][2]string{
	KeyRange:     {"ReadKeyRangeThroughputThrottleEvents", "WriteKeyRangeThroughputThrottleEvents"},
	Provisioned:  {"ReadThrottleEvents", "WriteThrottleEvents"},
	MaxOnDemand:  {"ReadMaxOnDemandThroughputThrottleEvents", "WriteMaxOnDemandThroughputThrottleEvents"},
	AccountLimit: {"ReadAccountLimitThrottleEvents", "WriteAccountLimitThrottleEvents"},
}

// ReasonMetric is the CloudWatch metric that counts the events throttled
// for a reason Reason built; "" for any other text.
func ReasonMetric(reason string) string {
	for _, res := range []string{"Table", "Index"} {
		for side, op := range []string{"Read", "Write"} {
			for limit, m := range reasonMetrics {
				if reason == res+op+limit {
					return m[side]
				}
			}
		}
	}
	return ""
}
