package engine

import (
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/workload"
)

// fakeCall is call i of a run: one of two patterns, a latency drawn from
// a long-tailed distribution, every 50th failing.
func fakeCall(r *rand.Rand, i int) vegeta.Result {
	res := vegeta.Result{Attack: []string{"AP-01", "AP-02"}[i%2], Seq: uint64(i / 2), Code: 200, Method: "Query",
		URL: "ddb://t/AP-01", Timestamp: time.Unix(0, int64(i)*int64(time.Millisecond)),
		Latency: time.Duration(math.Exp(r.NormFloat64()*0.8) * float64(2*time.Millisecond))}
	if i%50 == 0 {
		res.Code, res.Error = 503, "throttled"
	}
	return res
}

// heapAfter is the live heap after feeding n calls to a collector that
// writes them to a results file; the collector is still live when measured.
func heapAfter(t *testing.T, n int) uint64 {
	results, err := createResults(filepath.Join(t.TempDir(), "results.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer results.close()
	sc := workload.Scenario{Name: "memory", Mix: []workload.Step{{Pattern: "AP-01", Weight: 1}, {Pattern: "AP-02", Weight: 1}}}
	c := newCollector(sc, io.Discard, results, 0, nil)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		res := fakeCall(r, i)
		c.add(&res)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(c)
	if results.err != nil {
		t.Fatal(results.err)
	}
	return ms.HeapAlloc
}

// The collector keeps no call: ten times the calls take the same memory.
// Keeping them took about 0.74 KB a call, 130 MB more for the larger run.
func TestCollectorMemoryDoesNotGrowWithCalls(t *testing.T) {
	const n = 20_000
	heapAfter(t, n) // the first run pays for what is made once (gob's types)
	small, large := heapAfter(t, n), heapAfter(t, 10*n)
	const margin = 4 << 20
	t.Logf("heap %.1f MB after %d calls, %.1f MB after %d", float64(small)/(1<<20), n, float64(large)/(1<<20), 10*n)
	if large > small+margin {
		t.Errorf("heap %.1f MB after %d calls, %.1f MB after %d: want at most %d MB more",
			float64(small)/(1<<20), n, float64(large)/(1<<20), 10*n, margin>>20)
	}
}

// The percentiles the tally reports are the exact ones, rounded up by at
// most LatencyError.
func TestPercentilesWithinTheStatedError(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tally := NewTally("AP-01", "AP-02")
	var all, one []time.Duration
	for i := range 100_000 {
		res := fakeCall(r, i)
		tally.Add(&res)
		all = append(all, res.Latency)
		if res.Attack == "AP-01" {
			one = append(one, res.Latency)
		}
	}
	check := func(name string, m vegeta.Metrics, exact []time.Duration) {
		slices.Sort(exact)
		for _, q := range []struct {
			p   float64
			got time.Duration
		}{{50, m.Latencies.P50}, {90, m.Latencies.P90}, {95, m.Latencies.P95}, {99, m.Latencies.P99}} {
			// The exact percentile: the value at rank p·n, rounded, of the
			// latencies in order.
			rank := max(1, int(q.p/100*float64(len(exact))+0.5))
			want := exact[rank-1]
			if hi := time.Duration(float64(want) * (1 + LatencyError)); q.got < want || q.got > hi {
				t.Errorf("%s p%.0f = %d ns, want the exact %d ns up to %d ns", name, q.p, q.got, want, hi)
			}
		}
		if m.Latencies.Max != exact[len(exact)-1] || m.Requests != uint64(len(exact)) {
			t.Errorf("%s: max %s over %d calls, want %s over %d", name, m.Latencies.Max, m.Requests, exact[len(exact)-1], len(exact))
		}
	}
	check("mix", tally.Total(), all)
	check("AP-01", tally.Pattern("AP-01"), one)
	if errs := tally.Errors(); len(errs) != 1 || errs[0] != (ErrorCount{Pattern: "AP-01", Code: 503, Error: "throttled", Calls: 2000}) {
		t.Errorf("errors %+v, want AP-01's 2000 throttled calls", errs)
	}
}

// An open tally takes each pattern at its first call, as a tally given
// the patterns ahead does.
func TestOpenTallyTakesEachPatternAtItsFirstCall(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	open, given := NewOpenTally(), NewTally("AP-01", "AP-02")
	for i := range 1_000 {
		res := fakeCall(r, i)
		open.Add(&res)
		given.Add(&res)
	}
	if got := open.Patterns(); !slices.Equal(got, []string{"AP-01", "AP-02"}) {
		t.Fatalf("patterns %v, want AP-01 and AP-02", got)
	}
	for _, p := range open.Patterns() {
		o, g := open.Pattern(p), given.Pattern(p)
		ol, gl := o.Latencies, g.Latencies
		if o.Requests != g.Requests || o.Success != g.Success || ol.P50 != gl.P50 || ol.P99 != gl.P99 || ol.Max != gl.Max || ol.Mean != gl.Mean {
			t.Errorf("%s: open %d calls %+v, given %d calls %+v", p, o.Requests, ol, g.Requests, gl)
		}
	}
	if !slices.Equal(open.Errors(), given.Errors()) {
		t.Errorf("errors %+v, want %+v", open.Errors(), given.Errors())
	}
}
