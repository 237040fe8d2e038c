package designs_test

import (
	"slices"
	"testing"

	"github.com/ddbharness/ddbharness/designs"
)

func TestSplitKeyKeepsTimesWhole(t *testing.T) {
	for _, tc := range []struct {
		text, sep string
		n         int
		want      []string
	}{
		{"EVENT:2024-05-01T10:00:00Z:7", ":", 3, []string{"EVENT", "2024-05-01T10:00:00Z", "7"}},
		{"EVENT:2024-05-01T10:00:00.123+02:00:7", ":", 3, []string{"EVENT", "2024-05-01T10:00:00.123+02:00", "7"}},
		{"a:b:c", ":", 2, []string{"a", "b:c"}},
		{"T:10:00:x", ":", -1, []string{"T", "10:00", "x"}},
		{"USER#1#10:00", "#", 3, []string{"USER", "1", "10:00"}},
	} {
		if got := designs.SplitKey(tc.text, tc.sep, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("SplitKey(%q, %q, %d) = %q, want %q", tc.text, tc.sep, tc.n, got, tc.want)
		}
	}
}
