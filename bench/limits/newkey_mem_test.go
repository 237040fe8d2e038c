package limits

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/heaptest"
	"github.com/ddbharness/ddbharness/internal/keytab"
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
		l := capacity.NewLedgerKeys(s, names)
		now := t0
		e := New(s, Config{Keys: names, Now: func() time.Time { return now }})
		e.Enable()
		for i := range calls {
			k := i % distinct
			invoice := fmt.Sprintf("2Z8Ck9pXqL3mN7rT1vW5yB0dF%06d", k)
			line := "LINEITEM#" + invoice + "#1"
			item := ddbitem.Item{"PK": str(line), "SK": str(line), "GSI1PK": str("INVOICE#" + invoice),
				"GSI1SK": str("LINEITEM#1"), "Amount": &types.AttributeValueMemberN{Value: "1250"}, "Text": str("a line of an invoice")}
			at := t0.Add(time.Duration(i/250) * time.Second)
			now = at
			charges := l.Observe(capacity.Observation{At: at, Pattern: "AP-03", Op: designs.PutItem, Table: "t",
				Writes: []capacity.Write{{After: item}}})
			e.Debit("t", charges)
		}
		return []any{l, e}
	})
}

// A call that creates an item under new partition key values (the table's
// and a GSI's) grows the ledger and the emulator by those keys' rows (a
// compact one each in the ledger, an estimate and a share in the
// emulator), the item's and its collection's, each key text kept once in
// the shared keytab: about 300 bytes a new key.
func TestNewKeyIsSmall(t *testing.T) {
	const n = 10_000
	newKeyHeap(100, n)
	base := newKeyHeap(100, n)
	grown := newKeyHeap(n, n)
	perCall := float64(grown-base) / n
	t.Logf("%.0f bytes a call, %.0f a new key", perCall, perCall/2)
	if perCall/2 > 350 {
		t.Errorf("%.0f bytes of heap a new key (two a call), want at most 350", perCall/2)
	}
}
