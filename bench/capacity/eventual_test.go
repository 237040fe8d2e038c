package capacity

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// A hot key whose partition reaches its read limit on eventually
// consistent reads gets the measured figure beside the model's: the
// ceiling says so (the findings give it); strongly consistent reads of
// the same key do not.
// Source: https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
func TestEventualReadsOfAHotKeyMayBeAThirdLow(t *testing.T) {
	for _, consistent := range []bool{false, true} {
		get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: consistent, Reads: []ddbitem.Item{sized("HOT", "B", 4000)}}
		r := analyze(Model{Schema: schema, Duration: 10 * time.Second}, repeat(100, get)...)
		c := r.Ceiling
		if c == nil || c.Key != "HOT" {
			t.Fatalf("consistent %v: Analyze().Ceiling = %+v, want HOT's partition", consistent, c)
		}
		if c.EventualReads == consistent {
			t.Errorf("consistent %v: Ceiling.EventualReads %v, want %v", consistent, c.EventualReads, !consistent)
		}
	}
}
