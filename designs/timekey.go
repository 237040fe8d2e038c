package designs

import (
	"fmt"
	"time"
)

// KeyTimeLayout writes a time for key text: UTC, nanoseconds always nine
// digits, so every time has one width and the texts sort as the times do.
// time.RFC3339Nano trims trailing zeros ("…05.1Z" sorts after "…05.12Z"
// though it is earlier) and keeps the zone's offset, so two texts of one
// instant can differ.
const KeyTimeLayout = "2006-01-02T15:04:05.000000000Z"

// KeyTime is t as key text, in KeyTimeLayout: "2026-11-27T21:05:00.100000000Z".
func KeyTime(t time.Time) string { return t.UTC().Format(KeyTimeLayout) }

// ParseKeyTime reads a KeyTime text back, refusing any other form with
// ErrInvalidInput.
func ParseKeyTime(s string) (time.Time, error) {
	t, err := time.Parse(KeyTimeLayout, s)
	if err != nil || len(s) != len(KeyTimeLayout) {
		return time.Time{}, fmt.Errorf("key time %q: %w: want UTC with nine digits of nanoseconds, as designs.KeyTime writes it (e.g. %s)", s, ErrInvalidInput, KeyTime(time.Unix(0, 0)))
	}
	return t, nil
}
