package designs

import (
	"fmt"
	"time"

	"github.com/segmentio/ksuid"
)

// IDs are KSUIDs: 27 base62 characters that sort by creation second, then
// by 16 random bytes. Sorting keys built from them list items in creation
// order at one-second resolution; items created in the same second sort in
// random order among themselves.

// NewID returns a fresh KSUID created at t.
func NewID(t time.Time) string {
	id, err := ksuid.NewRandomWithTime(t)
	if err != nil {
		panic(fmt.Sprintf("ksuid: no randomness: %v", err)) // crypto/rand failing is fatal
	}
	return id.String()
}

// IDFrom returns the KSUID of t and a 16-byte payload: fixtures use it to
// make the same IDs from the same seed.
func IDFrom(t time.Time, payload [16]byte) string {
	id, err := ksuid.FromParts(t, payload[:])
	if err != nil {
		panic(fmt.Sprintf("ksuid: %v", err)) // a 16-byte payload cannot fail
	}
	return id.String()
}

// MinIDAt is the smallest KSUID of second t: "IDs created at or after t"
// is ID >= MinIDAt(t).
func MinIDAt(t time.Time) string { return IDFrom(t, [16]byte{}) }

// IDTime returns the creation second of a KSUID.
func IDTime(id string) (time.Time, error) {
	k, err := ksuid.Parse(id)
	if err != nil {
		return time.Time{}, fmt.Errorf("id %q: %w: not a KSUID", id, ErrInvalidInput)
	}
	return k.Time(), nil
}
