// Heap and long-simulation tests run one goroutine for tens of CPU-seconds
// (docs/performance.md, make verify warm): make faults runs them (build
// tag heavy), and verify leaves them out. The race detector has nothing to find in them
// and makes them ten times slower, so they build without it.

//go:build heavy && !race

package emulate

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/heaptest"
	"github.com/ddbharness/ddbharness/internal/keytab"
	"github.com/ddbharness/ddbharness/pricing"
)

// newKeyHeap feeds a ledger and an emulator sharing one keytab calls that
// each create an item as invoicing's CreateInvoice does (a line item: its
// partition and sort keys one new text, a new GSI partition key value),
// cycling over distinct of them, and returns the heap after GC.
func newKeyHeap(distinct, calls int) uint64 {
	s := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "GSI1", PK: "GSI1PK", SK: "GSI1SK"}}}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	t0 := time.Unix(1_700_000_000, 0)
	return heaptest.HeapAfter(func() any {
		names := keytab.New()
		l := ledger.NewLedgerKeys(s, names)
		now := t0
		e := New(s, Config{Keys: names, Now: func() time.Time { return now }})
		e.Enable()
		for i := range calls {
			k := i % distinct
			invoice := fmt.Sprintf("2Z8Ck9pXqL3mN7rT1vW5yB0dF%06d", k)
			line := "LINEITEM#" + invoice + "#1"
			item := ddbitem.Item{"PK": str(line), "SK": str(line), "GSI1PK": str("INVOICE#" + invoice),
				"GSI1SK": str("LINEITEM#1"), "Amount": &types.AttributeValueMemberN{Value: "1250"}, "Text": str("a line of an invoice")}
			at := t0.Add(time.Duration(i) * 200 * time.Second / time.Duration(calls)) // 200 seconds however many calls
			now = at
			charges := l.Observe(pricing.Observation{At: at, Pattern: "AP-03", Op: designs.PutItem, Table: "t",
				Writes: []pricing.Write{{After: item}}})
			e.Debit("t", charges)
		}
		return []any{l, e}
	})
}

// A run that creates an item under new partition key values (the table's
// and a GSI's) at every call keeps its heap: the ledger's and the
// emulator's rows for those keys, the item's and its collection's, and the
// keys' texts stay in memory while recent and then go to files.
func TestNewKeysKeepTheHeap(t *testing.T) {
	const n = 20_000 // past the rows each spill map keeps in memory (16,384 at most)
	newKeyHeap(1000, 1000)
	some, many := newKeyHeap(n, n), newKeyHeap(3*n, 3*n)
	t.Logf("heap %.1f MB after %d calls, %.1f MB after %d", float64(some)/(1<<20), n, float64(many)/(1<<20), 3*n)
	if many > some+4<<20 {
		t.Errorf("heap %.1f MB after %d calls, %.1f MB after %d, each with new keys: want at most 4 MB more (the recent rows kept in memory)",
			float64(some)/(1<<20), n, float64(many)/(1<<20), 3*n)
	}
}
