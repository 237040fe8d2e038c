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

// An item at rest costs tens of bytes, not its image: a run that creates
// an item at every call grows by that much a call.
func TestShadowItemAtRestIsSmall(t *testing.T) {
	const n = 40_000
	base := shadowHeap(1, n)
	many := shadowHeap(n, n)
	per := float64(many-base) / n
	t.Logf("%.0f bytes an item", per)
	if per > 120 {
		t.Errorf("%.0f bytes of heap an item at rest, want at most 120", per)
	}
}
