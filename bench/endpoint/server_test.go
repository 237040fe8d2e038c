package endpoint

import (
	"runtime"
	"testing"
)

// TestSetProcs checks the endpoint's share of the cores: a quarter, at
// least one, and what the GOMAXPROCS environment variable says when set.
func TestSetProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	for _, c := range []struct{ cores, want int }{{1, 1}, {2, 1}, {7, 1}, {8, 2}, {16, 4}} {
		runtime.GOMAXPROCS(c.cores)
		if got := SetProcs(); got != c.want || runtime.GOMAXPROCS(0) != c.want {
			t.Errorf("on %d cores: SetProcs %d, GOMAXPROCS %d; want %d", c.cores, got, runtime.GOMAXPROCS(0), c.want)
		}
	}
	t.Setenv("GOMAXPROCS", "3")
	runtime.GOMAXPROCS(3)
	if got := SetProcs(); got != 3 || runtime.GOMAXPROCS(0) != 3 {
		t.Errorf("with GOMAXPROCS=3: SetProcs %d, GOMAXPROCS %d; want 3 left as set", got, runtime.GOMAXPROCS(0))
	}
}
