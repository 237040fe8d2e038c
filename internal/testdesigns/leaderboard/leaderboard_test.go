package leaderboard_test

import (
	"context"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testdesigns/leaderboard"
)

// scores are the scores a game's top scores list, in their order.
func scores(ctx context.Context, game string, n int) ([]int64, error) {
	top, err := table.TopScores(ctx, game, n)
	var out []int64
	for _, b := range top {
		out = append(out, b.Score)
	}
	return out, err
}

var _ = Describe("LB-01 post a score", Label("LB-01", "main-table"), func() {
	var player, game string
	BeforeEach(func() { player, game = name("player"), name("game") })

	It("creates the player's best on their first score in a game, listed on ByGame", func(ctx SpecContext) {
		Expect(table.PlayerBest(ctx, player, game)).Error().To(MatchError(designs.ErrNotFound))
		want := leaderboard.Best{Player: player, Game: game, Score: 120}
		Expect(table.PostScore(ctx, player, game, 120)).To(Equal(want))
		Expect(table.PlayerBest(ctx, player, game)).To(Equal(want))
		Eventually(ctx, table.TopScores).WithArguments(game, 10).Should(Equal([]leaderboard.Best{want}))
	})

	It("keeps a score that beats the best, and moves it up the game's order", func(ctx SpecContext) {
		rival := name("player")
		Expect(table.PostScore(ctx, player, game, 100)).Error().NotTo(HaveOccurred())
		Expect(table.PostScore(ctx, rival, game, 150)).Error().NotTo(HaveOccurred())
		Expect(table.PostScore(ctx, player, game, 200)).To(Equal(leaderboard.Best{Player: player, Game: game, Score: 200}))
		Eventually(ctx, scores).WithArguments(game, 10).Should(Equal([]int64{200, 150}))
	})

	It("refuses a score at or below the best as an expected refusal, and keeps the best", func(ctx SpecContext) {
		Expect(table.PostScore(ctx, player, game, 300)).Error().NotTo(HaveOccurred())
		for _, s := range []int64{300, 299, 0} {
			_, err := table.PostScore(ctx, player, game, s)
			Expect(err).To(And(MatchError(leaderboard.ErrNotABest), MatchError(designs.ErrRefused)), "score %d", s)
			Expect(err).To(MatchError(ContainSubstring("LB-01: player " + player + " game " + game + ": score does not beat")))
		}
		Expect(table.PlayerBest(ctx, player, game)).To(HaveField("Score", int64(300)))
	})

	It("keeps the highest of concurrent posts for one player and game", func(ctx SpecContext) {
		var wg sync.WaitGroup
		errs := make([]error, 20)
		for i := range errs {
			wg.Go(func() { _, errs[i] = table.PostScore(ctx, player, game, int64(10*i)) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				Expect(err).To(MatchError(leaderboard.ErrNotABest))
			}
		}
		Expect(table.PlayerBest(ctx, player, game)).To(HaveField("Score", int64(190)))
		Eventually(ctx, scores).WithArguments(game, 10).Should(Equal([]int64{190}))
	})

	It("refuses a negative score or a missing name before any request", func(ctx SpecContext) {
		for _, c := range [][3]any{{player, game, int64(-1)}, {"", game, int64(1)}, {player, "", int64(1)}} {
			_, err := table.PostScore(ctx, c[0].(string), c[1].(string), c[2].(int64))
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		}
		Expect(table.PlayerBest(ctx, player, game)).Error().To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("LB-02 top scores of a game", Label("LB-02", leaderboard.ByGame), func() {
	It("lists the game's n best scores, highest first, and no other game's", func(ctx SpecContext) {
		game, other := name("game"), name("game")
		for i, s := range []int64{50, 400, 120, 390, 7} {
			Expect(table.PostScore(ctx, name("player"), game, s)).Error().NotTo(HaveOccurred(), "post %d", i)
		}
		Expect(table.PostScore(ctx, name("player"), other, 1000)).Error().NotTo(HaveOccurred())
		Eventually(ctx, scores).WithArguments(game, 3).Should(Equal([]int64{400, 390, 120}))
		Eventually(ctx, scores).WithArguments(game, 10).Should(Equal([]int64{400, 390, 120, 50, 7}))
	})

	It("lists nothing for a game with no score, and refuses a count out of range", func(ctx SpecContext) {
		Expect(table.TopScores(ctx, name("game"), 5)).To(BeEmpty())
		for _, n := range []int{0, leaderboard.MaxTop + 1} {
			Expect(table.TopScores(ctx, "any", n)).Error().To(MatchError(designs.ErrInvalidInput))
		}
	})
})

var _ = Describe("LB-03 a player's best in a game", Label("LB-03", "main-table"), func() {
	It("reads the best kept, not the last posted", func(ctx SpecContext) {
		player, game := name("player"), name("game")
		Expect(table.PostScore(ctx, player, game, 80)).Error().NotTo(HaveOccurred())
		Expect(table.PostScore(ctx, player, game, 60)).Error().To(MatchError(leaderboard.ErrNotABest))
		Expect(table.PlayerBest(ctx, player, game)).To(Equal(leaderboard.Best{Player: player, Game: game, Score: 80}))
		Expect(table.PlayerBest(ctx, player, name("game"))).Error().To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("LB-04 a player's bests in every game", Label("LB-04", "main-table"), func() {
	It("lists one best a game for the player, and no other player's", func(ctx SpecContext) {
		player, other := name("player"), name("player")
		games := []string{name("game"), name("game"), name("game")}
		for i, g := range games {
			Expect(table.PostScore(ctx, player, g, int64(10+i))).Error().NotTo(HaveOccurred())
		}
		Expect(table.PostScore(ctx, player, games[0], 99)).Error().NotTo(HaveOccurred())
		Expect(table.PostScore(ctx, other, games[0], 500)).Error().NotTo(HaveOccurred())
		bests, err := table.PlayerBests(ctx, player)
		Expect(err).NotTo(HaveOccurred())
		slices.SortFunc(bests, func(a, b leaderboard.Best) int { return int(a.Score - b.Score) })
		Expect(bests).To(Equal([]leaderboard.Best{{player, games[1], 11}, {player, games[2], 12}, {player, games[0], 99}}))
		Expect(table.PlayerBests(ctx, name("player"))).To(BeEmpty())
	})
})
