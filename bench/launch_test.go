package bench_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/gate"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testdesigns/leaderboard"
	"github.com/ddbharness/ddbharness/workload"
	"github.com/ddbharness/ddbharness/workload/threshold"
)

var _ = Describe("a launch day, most posts a new player's first score onto two new games", Label("engine"), func() {
	It("throttles the first scores on the ByGame partition they write, and counts the refused posts apart from the errors", func(ctx SpecContext) {
		// 100 calls a second at DynamoDB's limits × 0.01: a partition serves
		// 10 WCU/s, and each new game's ByGame partition is asked for some
		// 37, most of them first scores, each an UpdateItem that creates
		// its item and the game's index entry. The table, warmed for the
		// launch, spreads the same posts over 12 partitions, some 6 WCU/s
		// each. So the first scores meet the index partition's limit
		// however fast this machine runs, as long as it makes 40 calls a
		// second. The window lasts until every pattern has had 20 calls
		// end, a minute at most.
		const calls = 20
		sc := leaderboard.LaunchDay
		sc.Pool, sc.Duration = 100, time.Minute
		var firsts firstScores
		sc.Driver = firsts.watch(sc.Driver)
		out, err := bench.RunLimited(ctx, raw, sc, bench.Limits{Scale: 0.01}, engine.Workers(64), engine.Warmup(300*time.Millisecond),
			engine.MinCalls(calls), engine.Drain(2*time.Second), engine.Progress(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Failure).To(BeNil())
		for _, p := range out.Patterns {
			Expect(p.Metrics.Requests).To(BeNumerically(">=", calls), "%s: the run reached its %s bound first", p.ID, sc.Duration)
		}

		By("throttling first scores on the index, as it throttles a player's later posts")
		i := slices.IndexFunc(out.Patterns, func(p engine.PatternMetrics) bool { return p.ID == leaderboard.PostScore })
		Expect(i).NotTo(BeNumerically("<", 0))
		posts := out.Patterns[i].Metrics
		throttled := posts.StatusCodes[strconv.Itoa(engine.StatusThrottled)]
		GinkgoWriter.Printf("LB-01: %d calls, %d throttled, of them %d first scores refused by ByGame\n", posts.Requests, throttled, firsts.onIndex.Load())
		Expect(throttled).To(BeNumerically(">", 0))
		// Four posts in five are first scores: where the index's limit meets
		// them as it meets the later posts, they are far more than a
		// quarter of the posts it throttles.
		Expect(4*firsts.onIndex.Load()).To(BeNumerically(">", throttled), "first scores throttled on ByGame, of the %d LB-01 calls throttled", throttled)

		By("counting the refused posts as refused, not as errors")
		results := evaluate(out, "refused(LB-01) > 0%", "errors(LB-01) < 100%", "throttled(LB-01) < 100%")
		Expect(results[0].Pass).To(BeTrue(), "%s: %s", results[0].Threshold, results[0].Text)
		Expect(results[1].Measured).To(BeNumerically("<=", results[2].Measured+1e-9),
			"LB-01's errors (%s) are more than its throttled calls (%s)", results[1].Text, results[2].Text)
	})
})

// evaluate is the results of the thresholds exprs on out.
func evaluate(out bench.Outcome, exprs ...string) []threshold.Result {
	GinkgoHelper()
	var ts []threshold.Threshold
	for _, e := range exprs {
		t, err := threshold.Parse(e)
		Expect(err).NotTo(HaveOccurred())
		ts = append(ts, t)
	}
	return gate.Evaluate(out, ts)
}

// firstScores counts the first scores (a new player's first post in a
// game, whose error the driver marks) that ended throttled by the ByGame
// index's write limit, from the error each returned: the engine keeps only
// its class.
type firstScores struct{ onIndex atomic.Int64 }

func (f *firstScores) watch(driver func(designs.DB, string, int64) workload.Driver) func(designs.DB, string, int64) workload.Driver {
	return func(db designs.DB, table string, seed int64) workload.Driver {
		return watched{Pooled: driver(db, table, seed).(workload.Pooled), f: f}
	}
}

type watched struct {
	workload.Pooled
	f *firstScores
}

func (w watched) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	err := w.Pooled.Call(ctx, p, key, r)
	var te *types.ThrottlingException
	if p == leaderboard.PostScore && errors.As(err, &te) && strings.HasPrefix(err.Error(), leaderboard.FirstScore+": ") {
		for _, r := range te.ThrottlingReasons {
			if r.Reason != nil && *r.Reason == "IndexWriteKeyRangeThroughputExceeded" {
				w.f.onIndex.Add(1)
				break
			}
		}
	}
	return err
}
