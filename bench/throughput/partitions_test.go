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

// The allocation formula: 1,000 RCU and 500 WCU with 5 GB of data need
// ceil(1,000/3,000 + 500/1,000) = 1 partition, and 1 for the data;
// 3,000 RCU and 2,000 WCU need 3; 25 GB needs 3 at any throughput. An
// on-demand table's warm 12,000 RRU or 4,000 WRU is 4, not the sum's 8.
func TestPartitionCounts(t *testing.T) {
	const gb = 1 << 30
	for _, c := range []struct {
		rcu, wcu, bytes int64
		want            int
	}{
		{1000, 500, 5 * gb, 1},
		{3000, 2000, 5 * gb, 3},
		{100, 100, 25 * gb, 3},
		{0, 0, 0, 1},
		{12000, 4000, 0, 8},
	} {
		if got := Partitions(c.rcu, c.wcu, c.bytes); got != c.want {
			t.Errorf("Partitions(%d RCU, %d WCU, %d bytes) = %d, want %d", c.rcu, c.wcu, c.bytes, got, c.want)
		}
	}
	for _, c := range []struct {
		r, w  float64
		bytes int64
		want  int
	}{
		{12000, 4000, 0, 4},
		{24000, 4000, 0, 8},
		{12000, 4000, 45 * gb, 5},
	} {
		if got := WarmPartitions(c.r, c.w, c.bytes); got != c.want {
			t.Errorf("WarmPartitions(%g RRU, %g WRU, %d bytes) = %d, want %d", c.r, c.w, c.bytes, got, c.want)
		}
	}
}
