// Package heaptest measures the live heap, for tests that a structure does
// not grow with the calls it takes. It reaches no DynamoDB, so a package
// whose tests use it stays among the unit tests of pure code.
package heaptest

import (
	"runtime"
	"testing"
)

// HeapAfter returns the live heap once f has run and garbage is collected,
// with what f returns still alive.
func HeapAfter(f func() any) uint64 {
	keep := f()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(keep)
	return ms.HeapAlloc
}

// Flat fails t when the heap after measure(10·n) exceeds the one after
// measure(n) by more than margin bytes: what measure builds does not grow
// with the calls. A first measure(n) pays for what is made once.
func Flat(t testing.TB, n int, margin uint64, measure func(calls int) uint64) {
	t.Helper()
	measure(n)
	small, large := measure(n), measure(10*n)
	t.Logf("heap %.1f MB after %d calls, %.1f MB after %d", mb(small), n, mb(large), 10*n)
	if large > small+margin {
		t.Errorf("heap %.1f MB after %d calls, %.1f MB after %d: want at most %.0f MB more", mb(small), n, mb(large), 10*n, mb(margin))
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
