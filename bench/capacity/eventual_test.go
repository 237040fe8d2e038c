package capacity

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// A hot key whose partition reaches its read limit on eventually
// consistent reads gets the measured figure beside the model's: the
// ceiling says so and the findings give it; strongly consistent reads of
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
		findings := strings.Join(r.Findings, "\n")
		said := strings.Contains(findings, "may be a third low")
		if c.EventualReads == consistent || said == consistent {
			t.Errorf("consistent %v: Ceiling.EventualReads %v, findings say a third low: %v; want both %v", consistent, c.EventualReads, said, !consistent)
		}
		// On the table, the reads' consistency is its pattern's: inferred.
		if cites := strings.Contains(findings, "eventually consistent [inferred: eventual-by-pattern]"); cites != !consistent {
			t.Errorf("consistent %v: findings cite eventual-by-pattern: %v, want %v:\n%s", consistent, cites, !consistent, findings)
		}
	}
}
