package engine

import (
	"context"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

func TestUnbounded(t *testing.T) {
	sine := vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 300, Per: time.Second},
		Amp: vegeta.Rate{Freq: 250, Per: time.Second}, StartAt: vegeta.Trough}
	tests := []struct {
		name  string
		pacer vegeta.Pacer
		want  bool
	}{
		{"zero constant pacer", vegeta.ConstantPacer{}, true},
		{"zero constant pacer by pointer", &vegeta.ConstantPacer{}, true},
		{"constant 100/s", vegeta.ConstantPacer{Freq: 100, Per: time.Second}, false},
		{"linear ramp", vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 50, Per: time.Second}, Slope: 2}, false},
		{"sine from its trough", sine, false},
	}
	for _, tt := range tests {
		if got := unbounded(tt.pacer); got != tt.want {
			t.Errorf("unbounded(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestScheduleFollowsThePacer counts the calls schedule makes due in 4 s:
// the integral of the pacer's rate, whatever its shape.
func TestScheduleFollowsThePacer(t *testing.T) {
	tests := []struct {
		name  string
		pacer vegeta.Pacer
		want  int // calls due in the first 4 s, from the rate's integral
	}{
		{"constant 100/s", vegeta.ConstantPacer{Freq: 100, Per: time.Second}, 400},
		{"linear from 50/s, +10/s each second", vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 50, Per: time.Second}, Slope: 10}, 280},
		// Mean 300, amplitude 250, period 20 s, from the trough: 50/s rising.
		{"sine from its trough", vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 300, Per: time.Second},
			Amp: vegeta.Rate{Freq: 250, Per: time.Second}, StartAt: vegeta.Trough}, 443},
	}
	for _, tt := range tests {
		a := &attack{pacer: tt.pacer, steps: []step{{Step: workload.Step{Pattern: designs.PatternID("AP-01"), Weight: 1, Keys: workload.Uniform{}}, upto: 1, keys: 1}}, total: 1}
		tickets := make(chan ticket, 10_000)
		a.schedule(context.Background(), time.Now(), 4*time.Second, nil, tickets)
		close(tickets)
		if got := len(tickets); got < tt.want-2 || got > tt.want+2 {
			t.Errorf("schedule(%s) made %d calls due in 4 s, want %d", tt.name, got, tt.want)
		}
	}
}
