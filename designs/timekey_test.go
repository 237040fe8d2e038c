package designs

import (
	"errors"
	"slices"
	"sort"
	"testing"
	"time"
)

// Key texts of times sort as the times do, whatever their zones and
// however many of their nanoseconds are zero, and read back the same.
func TestKeyTimeSortsAsTheTimes(t *testing.T) {
	base := time.Date(2026, 11, 27, 21, 5, 0, 0, time.UTC)
	east := time.FixedZone("east", 5*3600)
	times := []time.Time{
		base.Add(120 * time.Millisecond), base.Add(100 * time.Millisecond), base,
		base.Add(time.Second).In(east), base.Add(123456789 * time.Nanosecond), base.Add(time.Nanosecond),
	}
	texts := make([]string, len(times))
	for i, tm := range times {
		texts[i] = KeyTime(tm)
		if len(texts[i]) != len(KeyTimeLayout) {
			t.Errorf("KeyTime(%v) = %q, %d characters, want %d", tm, texts[i], len(texts[i]), len(KeyTimeLayout))
		}
		back, err := ParseKeyTime(texts[i])
		if err != nil || !back.Equal(tm) {
			t.Errorf("ParseKeyTime(%q) = %v, %v, want %v", texts[i], back, err, tm)
		}
	}
	sort.Strings(texts)
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for i, tm := range times {
		if texts[i] != KeyTime(tm) {
			t.Errorf("sorted texts %q do not follow the sorted times at %d (%v)", texts, i, tm)
		}
	}
	// RFC3339Nano, which the helper replaces, does not sort so.
	if a, b := base.Add(100*time.Millisecond).Format(time.RFC3339Nano), base.Add(120*time.Millisecond).Format(time.RFC3339Nano); a < b {
		t.Errorf("RFC3339Nano sorted %q before %q: the case for KeyTime is gone", a, b)
	}
	for _, bad := range []string{"2026-11-27T21:05:00.1Z", "2026-11-27T21:05:00.100000000+05:00", "", "yesterday"} {
		if _, err := ParseKeyTime(bad); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("ParseKeyTime(%q) = %v, want ErrInvalidInput", bad, err)
		}
	}
}
