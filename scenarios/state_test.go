package scenarios

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestScanFindsTheFirstMatchWithinItsWindow(t *testing.T) {
	for _, c := range []struct {
		start, n int
		match    []int // entities in the wanted state
		want     int
		found    bool
	}{
		{0, 100, []int{0}, 0, true},
		{3, 100, []int{1, 5, 9}, 5, true},
		{98, 100, []int{2}, 2, true}, // wraps at n
		{0, 100, []int{scanWindow}, 0, false},
		{0, 100, []int{scanWindow - 1}, scanWindow - 1, true},
		{1, 3, nil, 1, false}, // a pool smaller than the window is looked at once
	} {
		t.Run(fmt.Sprintf("from %d of %d, matches %v", c.start, c.n, c.match), func(t *testing.T) {
			seen := map[int]int{}
			got, found := scan(c.start, c.n, func(i int) bool {
				seen[i]++
				for _, m := range c.match {
					if i == m {
						return true
					}
				}
				return false
			})
			if got != c.want || found != c.found {
				t.Errorf("scan(%d, %d) with %v = %d, %v; want %d, %v", c.start, c.n, c.match, got, found, c.want, c.found)
			}
			for i, k := range seen {
				if k > 1 || i >= c.n {
					t.Errorf("scan(%d, %d) looked at %d %d times", c.start, c.n, i, k)
				}
			}
		})
	}
}

func TestStackHandsBackEachMadeEntityOnce(t *testing.T) {
	ctx := t.Context()
	var s stack[int]
	if v, ok := s.pop(ctx); ok {
		t.Fatalf("pop() on an empty stack = %d, true; want false", v)
	}
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() { s.start(i)(i%10 != 0) }) // every tenth making fails
	}
	wg.Wait()
	got := map[int]bool{}
	var mu sync.Mutex
	failed := 0
	for range 100 {
		wg.Go(func() {
			v, ok := s.pop(ctx)
			mu.Lock()
			defer mu.Unlock()
			if !ok {
				failed++
				return
			}
			if got[v] || v%10 == 0 {
				t.Errorf("pop() = %d: want each value made once, none whose making failed", v)
			}
			got[v] = true
		})
	}
	wg.Wait()
	if len(got) != 90 || failed != 10 {
		t.Errorf("popped %d made values and %d failed, want 90 and 10", len(got), failed)
	}
}

// A delete takes an entity whose making has started, and waits for it:
// whether it finds one follows the order the calls started in, not how
// soon the machine answered the making call.
func TestStackPopWaitsForTheMakingToEnd(t *testing.T) {
	var s stack[string]
	made := s.start("agency")
	popped := make(chan bool)
	go func() {
		_, ok := s.pop(t.Context())
		popped <- ok
	}()
	select {
	case <-popped:
		t.Fatal("pop returned before the making call ended")
	case <-time.After(10 * time.Millisecond):
	}
	made(true)
	if !<-popped {
		t.Error("pop of an entity made while it waited: false, want true")
	}
	ctx, cancel := context.WithCancel(t.Context())
	s.start("never made")
	cancel()
	if _, ok := s.pop(ctx); ok {
		t.Error("pop with its context ended, the making not: true, want false")
	}
}

func TestGuardedKeepsEveryChange(t *testing.T) {
	var g guarded[int]
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { g.do(func(v *int) { *v++ }) })
	}
	wg.Wait()
	if got := g.get(); got != 50 {
		t.Errorf("after 50 concurrent increments get() = %d, want 50", got)
	}
}

func TestPrefixCutsCharactersNotBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"alice@example.com", 3, "ali"},
		{"  Acme", 2, "Ac"},
		{"Ünïcode", 2, "Ün"},
		{"ab", 5, "ab"},
	} {
		if got := prefix(c.s, c.n); got != c.want {
			t.Errorf("prefix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
