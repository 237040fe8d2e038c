package capacity

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/pricing"
)

// FuzzLedgerFile reads a ledger file a user hands over (a shard's, inside
// shard.json) and merges and models it: whatever the bytes, the reader
// either refuses them or gives a report, and never panics.
func FuzzLedgerFile(f *testing.F) {
	l := ledger.NewLedger(schema)
	for i := range 20 {
		l.Observe(pricing.Observation{At: time.Unix(1_800_000_000+int64(i%3), 0), Pattern: "AP-01", Op: "PutItem",
			Writes: []pricing.Write{{After: sized("HOT", "A", 1000+i)}}})
	}
	good, err := json.Marshal(l.Export())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"` + ledger.LedgerFormat + `","first_second":5,"last_second":1,"keys":[{"target":"table","key":"K","seconds":[{"second":-9,"rcu":-1}]}]}`))
	f.Add([]byte(`{"format":"` + ledger.LedgerFormat + `","targets":[{"target":"","rcu":1e308,"wcu":-1e308}]}`))
	// No first second and a real last one: a span of 57 years, which the
	// replay once walked second by second.
	f.Add([]byte(`{"format":"` + ledger.LedgerFormat + `","last_second":1800000002,"keys":[{"target":"main-table","key":"HOT","wcu":20,"calls":20,"write_calls":20,"seconds":[{"second":1800000000,"wcu":7}]}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var file ledger.LedgerFile
		if json.Unmarshal(raw, &file) != nil {
			return
		}
		merged, err := ledger.MergeLedgers(schema, file, file)
		if err != nil {
			return
		}
		Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 100}.Analyze(merged)
	})
}

// A ledger whose span no run has (a file edited by hand) is not replayed
// second by second.
func TestReplaySkipsASpanNoRunHas(t *testing.T) {
	raw := `{"format":"` + ledger.LedgerFormat + `","last_second":1800000002,"keys":[{"target":"main-table","key":"HOT","wcu":20,"calls":20,"write_calls":20,"seconds":[{"second":1800000000,"wcu":7}]}]}`
	var file ledger.LedgerFile
	if err := json.Unmarshal([]byte(raw), &file); err != nil {
		t.Fatal(err)
	}
	l, err := ledger.MergeLedgers(schema, file)
	if err != nil {
		t.Fatal(err)
	}
	if r := (Model{Schema: schema, Duration: 10 * time.Second}).Analyze(l); r.Replay != nil {
		t.Errorf("a ledger from second %d to %d was replayed: %+v", l.First(), l.Last(), r.Replay)
	}
}
