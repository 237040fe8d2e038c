package engine_test

import (
	"context"
	"io"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/workload"
)

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEngine measures the engine's own cost per call: b.N calls of a
// driver that does nothing, due at once, through the whole engine (pacer,
// worker pool, results file, metrics, progress). It reports the CPU each call
// took (the target is 10 µs or less) beside the wall time per call.
func BenchmarkEngine(b *testing.B) {
	b.ReportAllocs()
	if calls := runForCPU(b, sleeping(0, workload.Scenario{Pacer: allAtOnce(b.N), Duration: time.Hour})); calls != b.N {
		b.Fatalf("%d results for %d calls", calls, b.N)
	}
}

// runForCPU runs sc on a fake database and reports the CPU per call.
func runForCPU(b *testing.B, sc workload.Scenario) (calls int) {
	cpu := cpuTime()
	b.ResetTimer()
	out, err := engine.Run(context.Background(), newFakeDB(), sc, engine.Warmup(0), engine.Progress(io.Discard),
		engine.ResultsTo(filepath.Join(b.TempDir(), "results.bin")))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(out.Total.Requests)/1e3, "cpu-µs/call")
	return int(out.Total.Requests)
}

// BenchmarkEnginePaced is BenchmarkEngine at a steady 2,000 calls a
// second, the pace of a real run: each call then also pays for the
// scheduler's sleep and a worker's wake-up.
func BenchmarkEnginePaced(b *testing.B) {
	const rate = 2000
	runForCPU(b, sleeping(0, workload.Scenario{Pacer: vegeta.ConstantPacer{Freq: rate, Per: time.Second},
		Duration: time.Duration(b.N+1) * time.Second / rate}))
}

// allAtOnce makes n calls due at once, then stops.
type allAtOnce uint64

func (n allAtOnce) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	return 0, hits >= uint64(n)
}
func (allAtOnce) Rate(time.Duration) float64 { return 0 }
