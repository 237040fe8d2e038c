package leaderboard_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/internal/testdesigns/leaderboard"
	"github.com/ddbharness/ddbharness/workload"
)

// The driver's choices are its own, not DynamoDB's: its specs run on an
// in-memory table, which evaluates LB-01's condition as DynamoDB does.
var _ = Describe("the scenarios' driver", func() {
	// posts makes n posts with sc's driver, seeded with 40 players, on
	// games drawn as a uniform step draws them, and counts the refused
	// ones; it returns the table too.
	posts := func(ctx context.Context, sc workload.Scenario, n int) (int, *memtable.Memory) {
		db := memtable.NewMemory(leaderboard.Schema.ItemSchema(), "leaderboard")
		d := sc.Driver(db, "leaderboard", GinkgoRandomSeed())
		Expect(d.Seed(ctx, 40, nil)).To(Succeed())
		games := d.(workload.Pooled).Pools()["game"]
		r := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 1))
		refused := 0
		for range n {
			err := d.Call(ctx, leaderboard.PostScore, r.IntN(games), r)
			if errors.Is(err, leaderboard.ErrNotABest) {
				refused++
				continue
			}
			Expect(err).NotTo(HaveOccurred())
		}
		return refused, db
	}

	It("has a season's posts refused about one time in four", func(ctx SpecContext) {
		// A season post is refused with odds 0.95 × 0.26: some 247 of
		// 1,000, give or take 14.
		refused, _ := posts(ctx, leaderboard.Season, 1000)
		Expect(refused).To(BeNumerically("~", 247, 45))
	})

	It("has a launch's posts mostly first scores in the new games, which the seed left empty", func(ctx SpecContext) {
		// A launch post is a new player's first score 8 times in 10, and
		// 1 in 4 of the others is refused: some 50 of 1,000.
		refused, db := posts(ctx, leaderboard.LaunchDay, 1000)
		Expect(refused).To(BeNumerically("~", 50, 22))
		launched := 0
		for _, it := range db.Items() {
			if sk, _ := it["SK"].(*types.AttributeValueMemberS); strings.HasPrefix(sk.Value, "GAME#launch-") {
				launched++
			}
		}
		Expect(launched).To(BeNumerically("~", 800, 40))
	})
})
