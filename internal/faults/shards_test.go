package faults_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/limits"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// runFigures is what the comparison reads of a report's metrics.json.
type runFigures struct {
	Total    vegeta.Metrics `json:"total"`
	Patterns []struct {
		ID      string         `json:"id"`
		Metrics vegeta.Metrics `json:"metrics"`
	} `json:"patterns"`
	Capacity   capacity.Report    `json:"capacity"`
	Throttling *limits.Throttling `json:"throttling"`
}

func figuresIn(dir string) runFigures {
	GinkgoHelper()
	raw, err := os.ReadFile(filepath.Join(dir, report.MetricsFile))
	Expect(err).NotTo(HaveOccurred())
	var f runFigures
	Expect(json.Unmarshal(raw, &f)).To(Succeed())
	return f
}

// within10 matches a figure within 10 % of want.
func within10(want float64) OmegaMatcher {
	return BeNumerically("~", want, 0.1*want)
}

// withinAQuarter matches a figure that follows which calls were throttled
// within 25 % of want: which calls a token bucket refuses depends on when
// each arrives, and repeats of the one-machine run alone differ by that
// much on a loaded machine.
func withinAQuarter(want float64) OmegaMatcher {
	return BeNumerically("~", want, 0.25*want)
}

// Serial: its one-machine run and its shards compare rates and latencies,
// so it runs alone, after the suite's parallel specs.
var _ = Describe("a run split over two load machines, merged", Serial, Label("faults"), func() {
	It("reads as the one-machine run: the same calls and hot keys, rates within 10 %, throttling and its forecast within a quarter", func(ctx SpecContext) {
		srv, err := ddblocal.Start(ctx, ddblocal.WithLog(GinkgoWriter), ddblocal.WithEnv(ddblocal.Env{CacheDir: cacheDir()}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		env := given(srv.Endpoint)
		out := GinkgoT().TempDir()
		// Limits at 5 %: a partition serves 150 RCU/s and 50 WCU/s, so the
		// constant PROD partition throttles now and then at this rate. Run
		// harder, the forecast moves between repeats of the same run by
		// more than 10 %: throttled transactions are cancelled uncharged,
		// and how many are depends on timing.
		bench := func(args ...string) []string {
			return append(append([]string{"bench", "--duration", "10s", "--limits-scale", "0.05"}, args...), "shop/browse")
		}

		// Shard 1 seeds 2,000 shoppers and warms up before then; a shard
		// that starts late skews the merged rate, which the check below sees.
		start := time.Now().Add(20 * time.Second).UTC().Format(time.RFC3339)
		var shards []*running
		for _, s := range []string{"1/2", "2/2"} {
			shards = append(shards, startBin(env, bench("--out", filepath.Join(out, "shards"), "--shard", s, "--run", "split", "--start", start)...))
		}
		for _, s := range shards {
			code, _ := s.waitExit(2 * time.Minute)
			Expect(code).To(Equal(exitOK), s.Output())
		}
		// The one-machine run comes second, so that neither pays for the
		// JVM's first minutes alone.
		one := ddbtest.Command(ctx, repoRoot, env, bin, bench("--out", filepath.Join(out, "one"))...)
		Expect(one.Code).To(Equal(exitOK), one.Output)

		dirs, err := filepath.Glob(filepath.Join(out, "shards", "*-split-shard*of2"))
		Expect(err).NotTo(HaveOccurred())
		Expect(dirs).To(HaveLen(2))
		merged := ddbtest.Command(ctx, repoRoot, env, bin, append([]string{"report", "merge", "--out", filepath.Join(out, "merged")}, dirs...)...)
		Expect(merged.Code).To(Equal(exitOK), merged.Output)

		dirOne, err := report.Latest(filepath.Join(out, "one"))
		Expect(err).NotTo(HaveOccurred())
		dirMerged, err := report.Latest(filepath.Join(out, "merged"))
		Expect(err).NotTo(HaveOccurred())
		a, b := figuresIn(dirOne), figuresIn(dirMerged)

		By("the same calls: in all and per pattern, exactly")
		Expect(b.Total.Requests).To(Equal(a.Total.Requests))
		Expect(b.Capacity.Requests).To(Equal(a.Capacity.Requests))
		Expect(b.Patterns).To(HaveLen(len(a.Patterns)))
		for i := range a.Patterns {
			Expect(b.Patterns[i].ID).To(Equal(a.Patterns[i].ID))
			Expect(b.Patterns[i].Metrics.Requests).To(Equal(a.Patterns[i].Metrics.Requests), a.Patterns[i].ID)
		}

		By("the same hottest keys")
		Expect(b.Capacity.Hot).NotTo(BeEmpty())
		for i := range min(3, len(a.Capacity.Hot)) {
			Expect(b.Capacity.Hot[i].Target+" "+b.Capacity.Hot[i].Key).To(Equal(a.Capacity.Hot[i].Target+" "+a.Capacity.Hot[i].Key), "hot key %d", i)
		}

		// Throttled transactions are cancelled uncharged, so the forecast
		// moves with the throttled share.
		By("the same throttle rates forecast, within a quarter")
		Expect(a.Capacity.Ceiling).NotTo(BeNil())
		Expect(b.Capacity.Ceiling).NotTo(BeNil())
		Expect(b.Capacity.Ceiling.Target + " " + b.Capacity.Ceiling.Key).To(Equal(a.Capacity.Ceiling.Target + " " + a.Capacity.Ceiling.Key))
		Expect(b.Capacity.Ceiling.Rate).To(withinAQuarter(a.Capacity.Ceiling.Rate))
		for i := range min(3, len(a.Capacity.Hot)) {
			Expect(b.Capacity.Hot[i].ThrottleRate).To(withinAQuarter(a.Capacity.Hot[i].ThrottleRate), "hot key %d", i)
		}

		By("throttled as one machine was, within the emulator's timing noise")
		Expect(a.Throttling).NotTo(BeNil())
		Expect(b.Throttling).NotTo(BeNil())
		Expect(a.Throttling.Refused).To(BeNumerically(">", 0), "the one-machine run never throttled: the comparison would prove nothing")
		share := func(t *limits.Throttling) float64 { return float64(t.Throttled) / float64(t.Calls) }
		GinkgoWriter.Printf("throttled: one machine %d of %d calls (%d refused attempts), merged %d of %d (%d)\n",
			a.Throttling.Throttled, a.Throttling.Calls, a.Throttling.Refused, b.Throttling.Throttled, b.Throttling.Calls, b.Throttling.Refused)
		Expect(share(b.Throttling)).To(BeNumerically("~", share(a.Throttling), max(0.25*share(a.Throttling), 0.01)), "see withinAQuarter")

		By("rates within 10 %, percentiles as close as this machine's noise allows")
		Expect(b.Total.Rate).To(within10(a.Total.Rate))
		Expect(b.Capacity.MeasuredRate).To(within10(a.Capacity.MeasuredRate))
		// Latency is the one figure the split itself changes: two client
		// processes share two cores with DynamoDB Local, where one had them
		// to itself, and one run's own p50 moves by more than 10 % between
		// repeats here. The merge's arithmetic is proven exact apart
		// (bench's merge spec); here the percentiles must agree within
		// 10 % or a margin of the box's noise.
		Expect(b.Total.Latencies.P50).To(BeNumerically("~", a.Total.Latencies.P50, max(a.Total.Latencies.P50/10, 5*time.Millisecond)))
		Expect(b.Total.Latencies.P99).To(BeNumerically("~", a.Total.Latencies.P99, max(a.Total.Latencies.P99/10, 100*time.Millisecond)))
	})
})
