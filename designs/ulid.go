package designs

import (
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// ULIDs are the millisecond-resolution sortable IDs beside the KSUIDs: 26
// Crockford base32 characters, a 48-bit millisecond time then 80 bits of
// entropy. Where items created in the same second must still list in
// creation order, build their sort keys from ULIDs rather than KSUIDs.

// ulids hands out monotonic entropy: within one millisecond each ULID's
// entropy is the previous one's plus a random increment, so IDs made in the
// same millisecond sort in the order they were made. The source is not safe
// for concurrent use, hence the mutex.
var ulids = struct {
	sync.Mutex
	entropy *ulid.MonotonicEntropy
}{entropy: ulid.Monotonic(rand.Reader, 0)}

// NewULID returns a fresh ULID of t's millisecond. It sorts after every
// ULID of an earlier millisecond, and after the ULID made just before it
// in this process when that one has the same millisecond: calls whose t
// never goes back, as one goroutine's time.Now, sort in the order made.
// A call of another millisecond in between starts the entropy afresh, so
// after a t that went back, IDs of one millisecond are only unique.
func NewULID(t time.Time) string {
	ulids.Lock()
	defer ulids.Unlock()
	id, err := ulid.New(ulid.Timestamp(t), ulids.entropy)
	if err != nil {
		// A time before 1970 or after the year 10889 (a caller's bug), or
		// the entropy overflowing within one millisecond, which takes
		// about 2^48 IDs of that millisecond.
		panic(fmt.Sprintf("ulid: %v", err))
	}
	return id.String()
}

// ULIDTime returns the creation millisecond of a ULID.
func ULIDTime(id string) (time.Time, error) {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return time.Time{}, fmt.Errorf("id %q: %w: not a ULID (%v)", id, ErrInvalidInput, err)
	}
	return ulid.Time(u.Time()), nil
}
