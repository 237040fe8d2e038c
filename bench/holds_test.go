package bench

import (
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// TestHoldsOfIsTheScenarios: the hold the emulator's conflicts and the
// capacity model take is the scenario's, each step's own for its pattern,
// and DynamoDB's measured one where the scenario declares none.
func TestHoldsOfIsTheScenarios(t *testing.T) {
	sc := workload.Scenario{TransactionHold: 40 * time.Millisecond, Mix: []workload.Step{
		{Pattern: "AP-01", Weight: 1, TransactionHold: 90 * time.Millisecond}, {Pattern: "AP-02", Weight: 1}}}
	h := holdsOf(sc)
	for _, c := range []struct {
		p        designs.PatternID
		want     time.Duration
		declared bool
	}{{"AP-01", 90 * time.Millisecond, true}, {"AP-02", 40 * time.Millisecond, true}} {
		if got, declared := h.Of(c.p); got != c.want || declared != c.declared {
			t.Errorf("%s: hold %s (declared %t), want %s (%t)", c.p, got, declared, c.want, c.declared)
		}
	}
	if got, declared := holdsOf(workload.Scenario{}).Of("AP-01"); got != rules.DefaultTransactionHold || declared {
		t.Errorf("no hold declared: %s (declared %t), want DynamoDB's measured %s", got, declared, rules.DefaultTransactionHold)
	}
}
