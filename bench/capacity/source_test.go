package capacity

import (
	"testing"

	"github.com/ddbharness/ddbharness/bench/ledger"
)

// The on-demand table quota is AWS's own figure: its source is
// documented.
func TestOnDemandQuotaIsDocumented(t *testing.T) {
	quota := Model{Schema: schema}.run(ledger.NewLedger(schema)).budgetSource()
	if !quota.Documented() {
		t.Errorf("on-demand table quota source %+v, want documented", quota)
	}
}
