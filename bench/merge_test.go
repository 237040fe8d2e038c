package bench_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/scenarios"
)

var _ = Describe("merging the shards of a run", Label("unit"), func() {
	sc := scenarios.ShopBrowse
	start := time.Date(2026, 11, 23, 21, 0, 0, 0, time.UTC)
	// calls is one machine's run: two patterns, the second slower.
	calls := func() vegeta.Results {
		var rs vegeta.Results
		for i := range 1000 {
			p := []designs.PatternID{sc.Mix[0].Pattern, sc.Mix[1].Pattern}[i%2]
			rs = append(rs, vegeta.Result{Attack: string(p), Code: 200, Timestamp: start.Add(time.Duration(i) * 5 * time.Millisecond),
				Latency: time.Duration(1+i%2*10+i%7) * time.Millisecond})
		}
		return rs
	}
	steps := func() []engine.PatternMetrics {
		var ps []engine.PatternMetrics
		for _, st := range sc.Mix[:2] {
			p, _ := sc.Design.Pattern(st.Pattern)
			ps = append(ps, engine.PatternMetrics{Pattern: p, Weight: st.Weight})
		}
		return ps
	}
	shard := func(i, n int, rs vegeta.Results) bench.Shard {
		f := bench.ShardFile{Format: bench.ShardFormat, Shard: engine.ShardSpec{I: i, N: n, Run: "split"}}
		f.Run.Scenario, f.Run.Patterns, f.Run.Started, f.Run.Elapsed, f.Run.Workers = sc.Name, steps(), start, 5*time.Second, 64
		return bench.Shard{Dir: "shard", File: f, Results: rs}
	}

	It("computes vegeta's metrics over all the calls, exactly as one machine's", func() {
		one, err := bench.Merge(sc, []bench.Shard{shard(1, 1, calls())})
		Expect(err).NotTo(HaveOccurred())
		var a, b vegeta.Results
		for i, r := range calls() { // every other call, as --shard 1/2 and 2/2 send them
			if i%2 == 0 {
				a = append(a, r)
			} else {
				b = append(b, r)
			}
		}
		merged, err := bench.Merge(sc, []bench.Shard{shard(2, 2, b), shard(1, 2, a)})
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Total).To(Equal(one.Total))
		Expect(merged.Patterns).To(Equal(one.Patterns))
		Expect(merged.Total.Latencies.P99).NotTo(Equal(merged.Patterns[0].Metrics.Latencies.P99), "the patterns' latencies differ, so the check has teeth")
		Expect(merged.Workers).To(Equal(128))
		Expect(merged.Results).To(HaveLen(1000))
		Expect(merged.Results[1].Seq).To(BeZero(), "each pattern's calls are numbered from 0, as vegeta's plot expects")
	})

	It("refuses a missing shard, a shard given twice and shards of two runs, naming them", func() {
		_, err := bench.Merge(sc, []bench.Shard{shard(1, 3, nil), shard(3, 3, nil)})
		Expect(err).To(MatchError(ContainSubstring("shard(s) [2] missing")))
		_, err = bench.Merge(sc, []bench.Shard{shard(1, 2, nil), shard(1, 2, nil)})
		Expect(err).To(MatchError(ContainSubstring("give each shard once")))
		other := shard(2, 2, nil)
		other.File.Shard.Run = "other"
		_, err = bench.Merge(sc, []bench.Shard{shard(1, 2, nil), other})
		Expect(err).To(MatchError(ContainSubstring("merge one run's shards at a time")))
		old := shard(2, 2, nil)
		old.File.Format = "ddbharness-shard/0"
		_, err = bench.Merge(sc, []bench.Shard{shard(1, 2, nil), old})
		Expect(err).To(MatchError(ContainSubstring(`format "ddbharness-shard/0"`)))
	})
})
