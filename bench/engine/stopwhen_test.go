package engine_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

func TestStopWhenEndsTheWindowAtTheProgressLineThatSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 40 calls a second, due every 25 ms from 25 ms, of 10 ms each, for a
		// minute; stop once 100 calls have ended, which the progress line at
		// 3 s is the first to see (119 then).
		var asked []int
		stop := func(so engine.Outcome) string {
			asked = append(asked, int(so.Total.Requests))
			if so.Total.Requests >= 100 {
				return "100 calls or more"
			}
			return ""
		}
		out := run(t, sleeping(10*time.Millisecond, workload.Scenario{Pacer: perSecond(40), Duration: time.Minute}), engine.StopWhen(stop))
		if out.Duration != 3*time.Second || out.Stopped != "100 calls or more" {
			t.Fatalf("window %s, stopped %q: want 3s, stopped by the check's reason (asked at %v calls)", out.Duration, out.Stopped, asked)
		}
		if len(asked) != 3 || asked[0] != 39 || asked[1] != 79 || asked[2] != 119 {
			t.Errorf("asked with %v calls ended, want once a second: 39, 79, 119", asked)
		}
		// Every call due before the window ended was made, and none due
		// after it (the one due at 3 s itself is due at the line's instant).
		made := 0
		for _, r := range out.Results {
			if r.Timestamp.Sub(out.Started) > out.Duration {
				t.Fatalf("a call due at %s, after the window ended at %s", r.Timestamp.Sub(out.Started), out.Duration)
			}
			made++
		}
		if made < 119 || out.Unsent != 0 {
			t.Errorf("%d calls, %d not sent: want the 119 due before 3 s and none unsent", made, out.Unsent)
		}
	})
}

func TestStopWhenSilentLeavesTheWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		out := run(t, sleeping(10*time.Millisecond, workload.Scenario{Pacer: perSecond(40), Duration: 2 * time.Second}),
			engine.StopWhen(func(engine.Outcome) string { return "" }))
		if out.Duration != 2*time.Second || out.Stopped != "" || len(out.Results) != 79 {
			t.Errorf("window %s, stopped %q, %d calls: want 2s, not stopped, 79 calls", out.Duration, out.Stopped, len(out.Results))
		}
	})
}

func TestStopWhenRefusedOnAShard(t *testing.T) {
	db := newFakeDB()
	sc := sleeping(0, workload.Scenario{Pacer: perSecond(1), Duration: time.Second})
	_, err := engine.Run(t.Context(), db, sc, engine.StopWhen(func(engine.Outcome) string { return "" }),
		engine.Shard(engine.ShardSpec{I: 1, N: 2, Run: "spread"}), quiet)
	if !errors.Is(err, designs.ErrInvalidInput) || db.tableCount() != 0 {
		t.Errorf("error %v with %d tables, want invalid input before any table", err, db.tableCount())
	}
}
