package capacity

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// TestAWSThroughputExamples reproduces AWS's burst, adaptive capacity and
// on-demand growth examples with the model.
func TestAWSThroughputExamples(t *testing.T) {
	// Burst: 150 RCU provisioned, idle for 300 s, banks 45,000 units; at
	// 200 RCU/s they last 900 s.
	// Source: https://repost.aws/knowledge-center/dynamodb-spiky-workloads-short-intervals
	prov := designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 150, WCU: 10}
	var reads []pricing.Observation
	for i := range 100 {
		reads = append(reads, pricing.Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized(fmt.Sprint("K", i), "A", 4096)}})
	}
	r := analyze(Model{Schema: prov, Duration: 10 * time.Second, TargetRate: 200}, reads...)
	if f := r.Forecast; f == nil || !near(f.BurstSeconds, 900) {
		t.Errorf("burst at 200 RCU/s on 150 provisioned: %+v, want 900 s", f)
	}

	// Adaptive capacity: 400 WCU over four partitions, one taking 150
	// WCU/s: served, as the table is within its throughput and the
	// partition within 1,000 WCU/s.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
	prov = designs.Schema{PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 10, WCU: 400}
	var writes []pricing.Observation
	for i := range 300 { // per second: 150 on HOT, 50 on each of three others
		key := []string{"HOT", "HOT", "HOT", "A", "B", "C"}[i%6]
		writes = append(writes, pricing.Observation{Op: designs.PutItem, Writes: []pricing.Write{{After: sized(key, fmt.Sprint(i), 900)}}})
	}
	r = analyze(Model{Schema: prov, Duration: time.Second, TargetRate: 300}, writes...)
	if f := r.Forecast; f == nil || len(f.Over) != 0 || f.ThrottledFraction != 0 {
		t.Errorf("a 150 WCU/s partition on 400 WCU: %+v, want no throttling", f)
	}

	// On-demand growth: a table that peaked at 50,000 reads/s serves
	// 100,000 at once and 200,000 after another 30 minutes.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
	for _, c := range []struct {
		from, to float64
		want     int
	}{{50000, 100000, 1}, {50000, 200000, 2}, {50000, 50000, 0}} {
		if got := doublings(c.from, c.to); got != c.want {
			t.Errorf("doublings(%g, %g) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
}
