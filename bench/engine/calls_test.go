package engine

import (
	"context"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/workload"
)

// MakesCalls counts as the schedule does: the first call one interval
// in, none at the window's end, and a shard's calls every N-th.
func TestMakesCallsCountsAsTheSchedule(t *testing.T) {
	one := vegeta.ConstantPacer{Freq: 1, Per: time.Second}
	tests := []struct {
		name  string
		d     time.Duration
		shard ShardSpec
		want  bool
	}{
		{"one machine, a call due at the window's end", time.Second, ShardSpec{}, false},
		{"one machine, a call inside the window", 1500 * time.Millisecond, ShardSpec{}, true},
		{"shard 1 of 3 takes the first call", 2 * time.Second, ShardSpec{I: 1, N: 3}, true},
		{"shard 3 of 3 would take the third, past the window", 3 * time.Second, ShardSpec{I: 3, N: 3}, false},
		{"shard 3 of 3 takes the third", 3500 * time.Millisecond, ShardSpec{I: 3, N: 3}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MakesCalls(one, tc.d, tc.shard); got != tc.want {
				t.Errorf("MakesCalls(1/s, %s, %d/%d) = %v, want %v", tc.d, tc.shard.I, tc.shard.N, got, tc.want)
			}
			a := &attack{pacer: one, shard: tc.shard, total: 1,
				steps: []step{{Step: workload.Step{Keys: workload.Uniform{}}, upto: 1, keys: 1}}}
			tickets := make(chan ticket, 16)
			a.schedule(context.Background(), time.Unix(0, 0), tc.d, nil, tickets)
			close(tickets)
			var due []time.Time
			for tk := range tickets {
				due = append(due, tk.due)
			}
			if (len(due) > 0) != tc.want {
				t.Errorf("the schedule gives the shard calls due at %v; MakesCalls says %v", due, tc.want)
			}
		})
	}
}
