package throughput

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// TestIndexConfigOf: a GSI named in Settings.Indexes has its own units
// and warm throughput, what it leaves unset the table's; another GSI has
// the table's.
func TestIndexConfigOf(t *testing.T) {
	s := designs.Schema{Billing: types.BillingModeProvisioned, RCU: 1000, WCU: 500}
	st := Settings{WarmReads: 100, MaxWrites: 7, Indexes: map[string]IndexThroughput{"low": {WCU: 5, WarmReads: 40}}}
	low := IndexConfigOf(st, s, "low")
	if !low.Provisioned || low.RCU != 1000 || low.WCU != 5 || low.WarmReads != 40 || low.MaxWrites != 7 {
		t.Errorf("GSI low: %+v, want RCU 1000 (the table's), WCU 5, WarmReads 40, MaxWrites 7 (the table's)", low)
	}
	if other := IndexConfigOf(st, s, "other"); other.RCU != 1000 || other.WCU != 500 || other.WarmReads != 100 {
		t.Errorf("GSI other: %+v, want the table's", other)
	}
}
