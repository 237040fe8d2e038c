package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/scenarios"
)

var _ = Describe("merging the shards of a run", Label("unit"), func() {
	sc := scenarios.ShopBrowse
	start := time.Date(2026, 11, 23, 21, 0, 0, 0, time.UTC)
	// calls is one machine's run: two patterns, the second slower, one
	// call in ten refused and one in 25 failed.
	// Each pattern's calls are numbered in order of intended time, as the
	// schedule numbers them whichever shard makes them.
	calls := func() vegeta.Results {
		var rs vegeta.Results
		for i := range 1000 {
			p := []designs.PatternID{sc.Mix[0].Pattern, sc.Mix[1].Pattern}[i%2]
			r := vegeta.Result{Attack: string(p), Seq: uint64(i / 2), Code: 200, Timestamp: start.Add(time.Duration(i) * 5 * time.Millisecond),
				Latency: time.Duration(1+i%2*10+i%7) * time.Millisecond}
			switch {
			case i%10 == 3:
				r.Code, r.Error = engine.StatusRefused, "out of stock"
			case i%25 == 4:
				r.Code, r.Error = engine.StatusConflict, "transaction conflict"
			}
			rs = append(rs, r)
		}
		return rs
	}
	// written writes a shard's calls to its results file, in order of end
	// as the engine does.
	written := func(rs vegeta.Results) string {
		rs = slices.Clone(rs)
		slices.SortStableFunc(rs, func(a, b vegeta.Result) int { return a.End().Compare(b.End()) })
		path := filepath.Join(GinkgoT().TempDir(), "results.bin")
		f, err := os.Create(path)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		enc := vegeta.NewEncoder(f)
		for i := range rs {
			Expect(enc.Encode(&rs[i])).To(Succeed())
		}
		return path
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
		f.Run.Total.Requests = uint64(len(rs))
		return bench.Shard{Dir: "shard", File: f, Results: written(rs)}
	}

	It("computes vegeta's metrics over all the calls, exactly as one machine's", func() {
		one, err := bench.Merge(context.Background(), sc, []bench.Shard{shard(1, 1, calls())})
		Expect(err).NotTo(HaveOccurred())
		var a, b vegeta.Results
		for i, r := range calls() { // every other call, as --shard 1/2 and 2/2 send them
			if i%2 == 0 {
				a = append(a, r)
			} else {
				b = append(b, r)
			}
		}
		merged, err := bench.Merge(context.Background(), sc, []bench.Shard{shard(2, 2, b), shard(1, 2, a)})
		Expect(err).NotTo(HaveOccurred())
		// vegeta's figures, as its JSON report gives them: its t-digest
		// inside depends on the order the calls came in.
		Expect(json.Marshal(merged.Total)).To(MatchJSON(must(json.Marshal(one.Total))))
		Expect(json.Marshal(merged.Patterns)).To(MatchJSON(must(json.Marshal(one.Patterns))))
		Expect(merged.Total.Latencies.P99).NotTo(Equal(merged.Patterns[0].Metrics.Latencies.P99), "the patterns' latencies differ, so the check has teeth")
		Expect(merged.Workers).To(Equal(128))
		Expect(one.Refusals).To(HaveLen(1), "the refused calls, apart from the errors")
		Expect(one.Errors).NotTo(BeEmpty())
		Expect(merged.Refusals).To(Equal(one.Refusals))
		Expect(merged.Errors).To(Equal(one.Errors))

		By("writing the shards' calls as one machine's, in order of end")
		var b2 bytes.Buffer
		Expect(bench.MergeResults(context.Background(), []bench.Shard{shard(2, 2, b), shard(1, 2, a)}, &b2)).To(Succeed())
		var back vegeta.Results
		dec := vegeta.NewDecoder(&b2)
		for {
			var r vegeta.Result
			if err := dec.Decode(&r); err != nil {
				Expect(err).To(MatchError(io.EOF))
				break
			}
			back = append(back, r)
		}
		Expect(back).To(HaveLen(1000))
		Expect(slices.IsSortedFunc(back, func(x, y vegeta.Result) int { return x.End().Compare(y.End()) })).To(BeTrue())
		seqs := map[string][]uint64{}
		for _, r := range back {
			seqs[r.Attack] = append(seqs[r.Attack], r.Seq)
		}
		for attack, got := range seqs {
			slices.Sort(got)
			for i, n := range got {
				Expect(n).To(BeEquivalentTo(i), "%s's calls are numbered 0, 1, … across the shards, as vegeta's plot expects", attack)
			}
		}

		By("being read by vegeta's plot, which wants each pattern's calls in order of their numbers")
		p := plot.New()
		for i := range back {
			Expect(p.Add(&back[i])).To(Succeed())
		}
		p.Close()
		var html bytes.Buffer
		_, err = p.WriteTo(&html)
		Expect(err).NotTo(HaveOccurred())

		By("putting the calls of a shard that began measuring later on the one schedule")
		const late = 12 * time.Millisecond // more than a pattern's calls are apart
		var bLate vegeta.Results
		for _, r := range b {
			r.Timestamp = r.Timestamp.Add(late)
			bLate = append(bLate, r)
		}
		lateShard := shard(2, 2, bLate)
		lateShard.File.Run.Started = start.Add(late)
		var b3 bytes.Buffer
		Expect(bench.MergeResults(context.Background(), []bench.Shard{lateShard, shard(1, 2, a)}, &b3)).To(Succeed())
		due := map[string]time.Time{}
		for _, r := range calls() {
			due[r.Attack+"#"+strconv.FormatUint(r.Seq, 10)] = r.Timestamp
		}
		p = plot.New()
		dec = vegeta.NewDecoder(&b3)
		for {
			var r vegeta.Result
			if err := dec.Decode(&r); err != nil {
				Expect(err).To(MatchError(io.EOF))
				break
			}
			Expect(r.Timestamp).To(Equal(due[r.Attack+"#"+strconv.FormatUint(r.Seq, 10)]), "due as on one machine")
			Expect(p.Add(&r)).To(Succeed())
		}
	})

	It("models the run on the placement seed its shards ran with", func() {
		// Two hot keys apart on a new on-demand table's partitions under
		// seed 0 and together under the run's seed: only the run's seed
		// puts the lighter one beside the heavier in the ceiling.
		const hot, warm = "HOT#A", "HOT#B"
		const partitions = 4 // a new on-demand table's, at its warm throughput
		Expect(throughput.Placement(hot, partitions, 0)).NotTo(Equal(throughput.Placement(warm, partitions, 0)))
		seed := uint64(GinkgoRandomSeed())
		for seed == 0 || throughput.Placement(hot, partitions, seed) != throughput.Placement(warm, partitions, seed) {
			seed++
		}
		l := ledger.NewLedger(sc.Design.Schema)
		for sec := range 5 {
			at := start.Add(time.Duration(sec) * time.Second)
			for i := range 300 {
				pk := hot
				if i%3 == 2 {
					pk = warm
				}
				item := ddbitem.Item{"PK": s(pk), "SK": s(strconv.Itoa(sec*1000 + i))}
				l.Observe(pricing.Observation{At: at, Pattern: sc.Mix[0].Pattern, Op: designs.PutItem, Writes: []pricing.Write{{After: item}}})
			}
		}
		one := shard(1, 1, calls())
		one.File.Limits = bench.Limits{Off: true, PlacementSeed: seed}
		one.File.Inputs = bench.ModelInputs{Requests: 1000, Span: 5 * time.Second}
		file := l.Export()
		one.File.Ledger = &file
		merged, err := bench.Merge(context.Background(), sc, []bench.Shard{one})
		Expect(err).NotTo(HaveOccurred())

		model := capacity.Model{Schema: sc.Design.Schema, Requests: 1000, Duration: 5 * time.Second, Settings: throughput.Settings{PlacementSeed: seed}}
		want := model.Analyze(l)
		Expect(want.Ceiling).NotTo(BeNil())
		Expect(want.Ceiling.Key).To(Equal(hot))
		Expect(want.Ceiling.Sharing.With).To(Equal([]string{warm}), "the run's seed puts both keys on one partition")
		Expect(merged.Capacity.Ceiling).To(Equal(want.Ceiling))
		Expect(merged.Capacity.Hot).To(Equal(want.Hot))

		model.PlacementSeed = 0
		apart := model.Analyze(l)
		Expect(apart.Ceiling.Sharing.With).To(BeEmpty(), "seed 0 keeps the keys apart, so the check has teeth")
		Expect(merged.Capacity.Ceiling.Rate).To(BeNumerically("<", apart.Ceiling.Rate))
	})

	It("stops reading the shards' calls once its context ends (Ctrl-C, SIGTERM)", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := bench.Merge(ctx, sc, []bench.Shard{shard(1, 1, calls())})
		Expect(err).To(MatchError(context.Canceled))
		var w bytes.Buffer
		Expect(bench.MergeResults(ctx, []bench.Shard{shard(1, 1, calls())}, &w)).To(MatchError(context.Canceled))
		Expect(w.Len()).To(BeZero(), "calls written after the stop")
	})

	It("refuses a missing shard, a shard given twice and shards of two runs, naming them", func() {
		_, err := bench.Merge(context.Background(), sc, []bench.Shard{shard(1, 3, nil), shard(3, 3, nil)})
		Expect(err).To(MatchError(ContainSubstring("shard(s) [2] missing")))
		_, err = bench.Merge(context.Background(), sc, []bench.Shard{shard(1, 2, nil), shard(1, 2, nil)})
		Expect(err).To(MatchError(ContainSubstring("give each shard once")))
		other := shard(2, 2, nil)
		other.File.Shard.Run = "other"
		_, err = bench.Merge(context.Background(), sc, []bench.Shard{shard(1, 2, nil), other})
		Expect(err).To(MatchError(ContainSubstring("merge one run's shards at a time")))
		old := shard(2, 2, nil)
		old.File.Format = "ddbharness-shard/0"
		_, err = bench.Merge(context.Background(), sc, []bench.Shard{shard(1, 2, nil), old})
		Expect(err).To(MatchError(ContainSubstring(`format "ddbharness-shard/0"`)))
	})
})

func must[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}
