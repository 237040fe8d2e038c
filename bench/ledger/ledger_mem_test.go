package ledger

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/heaptest"
	"github.com/ddbharness/ddbharness/pricing"
)

// ledgerHeap observes calls writes and reads of items distinct items, of
// pks partition keys and as many GSI keys, spread over seconds seconds,
// and returns the heap after GC.
func ledgerHeap(items, pks, seconds, calls int) uint64 {
	return heaptest.HeapAfter(func() any { return observe(items, pks, seconds, calls) })
}

func observe(items, pks, seconds, calls int) *Ledger {
	l := NewLedger(schema)
	for i := range calls {
		k := i % items
		item := sized(fmt.Sprintf("P%08d", k%pks), fmt.Sprintf("S%08d", k), 300)
		item["G"] = s(fmt.Sprintf("G%08d", k%pks))
		at := t0.Add(time.Duration(i%seconds) * time.Second)
		if i%2 == 0 {
			item["D"] = s(fmt.Sprintf("%0*d", 260+i%7, i))
			l.Observe(pricing.Observation{At: at, Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: item}}})
		} else {
			l.Observe(pricing.Observation{At: at, Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{item}})
		}
	}
	return l
}

// On a fixed set of keys over fixed seconds, ten times the calls take the
// same memory: the ledger sums them per key, second and item.
func TestLedgerMemoryDoesNotGrowWithCalls(t *testing.T) {
	heaptest.Flat(t, 2_000, 1<<20, func(calls int) uint64 { return ledgerHeap(1000, 50, 20, calls) })
}

// An item read or written in two seconds keeps its partition key's full
// row in memory (its totals and its seconds); the item's record and its
// collection's are small, and go to a file when not recent. A key charged
// in one second only (each invoice or order a run creates) keeps the heap:
// the emulate package's TestNewKeysKeepTheHeap.
func TestLedgerItemIsSmall(t *testing.T) {
	const n = 10_000
	base := ledgerHeap(2, 2, 20, 2*n)
	for _, tt := range []struct {
		pks  int
		most float64
	}{{50, 80}, {n, 400}} { // 68 bytes before the per-item write records (itemuse.go), 69–70 with them
		per := float64(ledgerHeap(n, tt.pks, 20, 2*n)-base) / n
		t.Logf("%d partition keys: %.0f bytes an item", tt.pks, per)
		if per > tt.most {
			t.Errorf("%d partition keys: %.0f bytes of heap an item, want at most %.0f", tt.pks, per, tt.most)
		}
	}
}
