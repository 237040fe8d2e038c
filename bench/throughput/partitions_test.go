package throughput

import "testing"

// A seed's placement is a pure function of key, n and seed: the same in
// every process (a run, its replay and a merged shard must agree), so it
// is pinned here for the default seed, and always within [0, n).
func TestPlacementIsPinnedAndInRange(t *testing.T) {
	for key, want := range map[string]int{"USER": 3, "CAT": 0, "BRAND": 0, "PROD": 2, "lease_status#active": 2} {
		if got := Placement(key, 4, 0); got != want {
			t.Errorf("Placement(%q, 4, 0) = %d, want %d", key, got, want)
		}
	}
	for _, n := range []int{1, 3, 4, 40, 1 << 20} {
		for seed := range uint64(50) {
			if p := Placement("K", n, seed); p < 0 || p >= n {
				t.Fatalf("Placement(K, %d, %d) = %d, outside [0, %d)", n, seed, p, n)
			}
		}
	}
}

var placed int

// BenchmarkPlacement is the placement's part of the per-call path, for a
// key as long as accountpool's hottest.
func BenchmarkPlacement(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		placed += Placement("account_status#available", 4, uint64(i))
	}
}
