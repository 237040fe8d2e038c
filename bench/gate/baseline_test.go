package gate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// A baseline file no run could have written is refused, naming what is
// wrong: a figure no run measures (which would read every run as an
// improvement), a scenario without its pool (which would compare a run
// on any pool), no scenario at all, or a file that is not a regular one.
func TestReadBaselineRefusesWhatNoRunWrote(t *testing.T) {
	dir := t.TempDir()
	const good = `{"format": "ddbharness-baseline/1", "scenarios": {"shop/browse": {"AP-01": {"rcu_per_call": 1, "wcu_per_call": 2, "cost_per_million": 1.5, "bytes_grown_per_call": FIG}}}, "pools": {"shop/browse": 2000}}`
	for _, tc := range []struct{ name, text, says string }{
		{"a figure of 1e308", strings.Replace(good, `"rcu_per_call": 1`, `"rcu_per_call": 1e308`, 1), "rcu_per_call is 1e+308, which no run measures"},
		{"a figure past a float", strings.Replace(good, `"wcu_per_call": 2`, `"wcu_per_call": 1e999`, 1), "not a ddbharness-baseline/1 file"},
		{"a NaN", strings.Replace(good, `"wcu_per_call": 2`, `"wcu_per_call": NaN`, 1), "not a ddbharness-baseline/1 file"},
		{"units below 0", strings.Replace(good, `"wcu_per_call": 2`, `"wcu_per_call": -2`, 1), "wcu_per_call is -2"},
		{"bytes grown past any run", strings.Replace(good, "FIG", "-1e12", 1), "bytes_grown_per_call is -1e+12"},
		{"an empty pools list", strings.Replace(good, `"shop/browse": 2000`, ``, 1), "pools has no pool for shop/browse"},
		{"no pools list", strings.Replace(good, `, "pools": {"shop/browse": 2000}`, ``, 1), "pools has no pool for shop/browse"},
		{"no scenario", `{"format": "ddbharness-baseline/1", "scenarios": {}, "pools": {}}`, "holds no scenario"},
	} {
		path := filepath.Join(dir, "baseline.json")
		if err := os.WriteFile(path, []byte(strings.Replace(tc.text, "FIG", "-12.5", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadBaseline(t.Context(), path); err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "make bench-baseline") {
			t.Errorf("%s: %v, want a refusal saying %q and how to write it again", tc.name, err, tc.says)
		}
	}
	path := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(path, []byte(strings.Replace(good, "FIG", "-12.5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBaseline(t.Context(), path); err != nil {
		t.Errorf("a baseline a run could write (bytes grown below 0: a pattern that shrinks items): %v", err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		done := make(chan error, 1)
		go func() { _, err := ReadBaseline(t.Context(), path); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, userfile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v, want it refused as not a regular file", path, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("ReadBaseline(%s) still reading after a minute", path)
		}
	}
}

// A baseline is held against a run before it starts: its scenario must
// be there, and on the run's pool.
func TestBaselineHoldsOnlyItsScenariosOnTheirPools(t *testing.T) {
	b := Baseline{Scenarios: map[string]map[designs.PatternID]Figures{"shop/browse": {}}, Pools: map[string]int{"shop/browse": 2000}}
	if err := b.Holds("shop/browse", 2000); err != nil {
		t.Errorf("its own scenario and pool: %v", err)
	}
	if err := b.Holds("invoicing/month-end", 1500); err == nil || !strings.Contains(err.Error(), "no scenario invoicing/month-end") {
		t.Errorf("a scenario it lacks: %v", err)
	}
	if err := b.Holds("shop/browse", 200); err == nil || !strings.Contains(err.Error(), "--pool 2000") {
		t.Errorf("another pool: %v", err)
	}
}

// The baseline make bench-baseline wrote, bytes grown below 0 included,
// passes the checks.
func TestReadBaselineTakesTheCommittedOne(t *testing.T) {
	b, err := ReadBaseline(t.Context(), filepath.Join("..", "baseline.json"))
	if err != nil || len(b.Scenarios) == 0 {
		t.Fatalf("bench/baseline.json: %d scenarios, %v", len(b.Scenarios), err)
	}
}
