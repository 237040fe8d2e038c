package designs_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

func TestULIDsOfOneMillisecondSortInCreationOrder(t *testing.T) {
	at := time.Date(2026, time.January, 1, 12, 0, 0, 500_000, time.UTC) // mid-millisecond
	var ids []string
	for i := range 1000 {
		ids = append(ids, designs.NewULID(at.Add(time.Duration(i%2)*time.Microsecond))) // all in one millisecond
	}
	for i := 1; i < len(ids); i++ {
		if ids[i-1] >= ids[i] {
			t.Fatalf("NewULID in one millisecond: ID %d %s is not above ID %d %s", i, ids[i], i-1, ids[i-1])
		}
	}
}

func TestULIDsSortInCreationOrderAcrossMilliseconds(t *testing.T) {
	start := time.Date(2026, time.January, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 300 {
		ids = append(ids, designs.NewULID(start.Add(time.Duration(i/3)*time.Millisecond))) // three IDs a millisecond
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Fatalf("NewULID over 100 ms: IDs are not strictly increasing in creation order: %v", ids)
	}
}

func TestULIDTimeRoundTripsAtTheMillisecond(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, time.March, 4, 5, 6, 7, 891_234_567, time.UTC),
		time.Date(1970, time.January, 1, 0, 0, 0, 1_000_000, time.UTC),
		time.Date(2200, time.December, 31, 23, 59, 59, 999_999_999, time.FixedZone("x", 3600)),
	} {
		got, err := designs.ULIDTime(designs.NewULID(at))
		if err != nil {
			t.Fatalf("ULIDTime(NewULID(%v)) error %v", at, err)
		}
		if want := at.Truncate(time.Millisecond); !got.Equal(want) {
			t.Errorf("ULIDTime(NewULID(%v)) = %v, want %v", at, got, want)
		}
	}
}

func TestULIDTimeRefusesWhatIsNoULID(t *testing.T) {
	ksuid := designs.NewID(time.Now())
	for _, bad := range []string{"", "not-a-ulid", ksuid, "01ARZ3NDEKTSV4RRFFQ69G5FAU"} { // the last: U is not Crockford base32
		if _, err := designs.ULIDTime(bad); !errors.Is(err, designs.ErrInvalidInput) {
			t.Errorf("ULIDTime(%q) error %v, want ErrInvalidInput", bad, err)
		}
	}
}

func TestNewULIDIsSafeForConcurrentUse(t *testing.T) {
	at := time.Now()
	const workers, each = 8, 200
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				id := designs.NewULID(at)
				mu.Lock()
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != workers*each {
		t.Fatalf("%d goroutines made %d distinct ULIDs of one millisecond, want %d", workers, len(seen), workers*each)
	}
}
