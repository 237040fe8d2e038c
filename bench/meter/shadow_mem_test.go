// Heap tests in one goroutine: make faults runs them (build tag heavy,
// CONTRIBUTING.md); the race detector has nothing to find in them and
// makes them four times slower.

//go:build heavy && !race

package meter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/heaptest"
)

// shadowHeap writes calls images of 200-byte items to keys distinct keys
// of one shadow and returns the heap after GC.
func shadowHeap(keys, calls int) uint64 {
	return heaptest.HeapAfter(func() any { return write(keys, calls) })
}

func write(keys, calls int) *shadow {
	s := newShadow(ddbitem.Schema{PK: "PK", SK: "SK"}, nil)
	pad := &types.AttributeValueMemberS{Value: strings.Repeat("x", 160)}
	for i := range calls {
		k := i % keys
		item := ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%08d", k)},
			"SK": &types.AttributeValueMemberS{Value: "PROFILE"}, "N": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}, "Pad": pad}
		s.begin("t", item)
		s.known("t", item, s.get("t", item), item)
	}
	return s
}

// On a fixed set of items, ten times the writes take the same memory: each
// write's image replaces the item's previous one.
func TestShadowMemoryDoesNotGrowWithCalls(t *testing.T) {
	heaptest.Flat(t, 2_000, 1<<20, func(calls int) uint64 { return shadowHeap(1000, calls) })
}

// A run that creates an item at every call keeps its heap: the records of
// items at rest go to a file once a stripe holds more than it keeps in
// memory.
func TestShadowHeapDoesNotGrowWithItems(t *testing.T) {
	const n = 50_000
	shadowHeap(n, n)
	some, many := shadowHeap(n, n), shadowHeap(3*n, 3*n)
	t.Logf("heap %.1f MB with %d items, %.1f MB with %d", float64(some)/(1<<20), n, float64(many)/(1<<20), 3*n)
	if many > some+1<<20 {
		t.Errorf("heap %.1f MB with %d items, %.1f MB with %d: want at most 1 MB more", float64(some)/(1<<20), n, float64(many)/(1<<20), 3*n)
	}
}
