package leaderboard

import (
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// Play is what a scenario's players do: the games LB-01 and LB-02 draw
// from, and how the posts go.
type Play struct {
	// SeasonGames are the games the seed gives every player bests in
	// (PlayedGames of them each).
	SeasonGames int
	// LaunchGames, when above 0, are new games with no score yet: the
	// steps' "game" keys pick among them instead of the season's.
	LaunchGames int
	// First is the share of posts that are a new player's first score
	// in the game (an upsert: the post creates the item).
	First float64
	// Beats is the share of the other posts whose score beats the
	// player's best; the rest are refused (ErrNotABest).
	Beats float64
}

// PlayedGames is how many season games the seed gives each player a best
// in.
const PlayedGames = 3

// Scenario is the scenario "leaderboard/"+name: players seeded players
// playing as p says, 100 calls a second for 20 s.
func Scenario(name, about string, players int, p Play, mix []workload.Step) workload.Scenario {
	return workload.Scenario{Name: "leaderboard/" + name, About: about, Design: Design, Pool: players,
		Pacer: vegeta.ConstantPacer{Freq: 100, Per: time.Second}, Duration: 20 * time.Second, Mix: mix,
		Driver: func(db designs.DB, table string, _ int64) workload.Driver {
			return newDriver(Table{DB: db, Name: table}, p)
		}}
}

var (
	// Season is an ordinary day: players improve their bests in the
	// season's games, a post refused one time in four, while others read
	// the top scores.
	Season = Scenario("season", "players post scores in the season's games, one post in four refused for not beating the player's best", 500,
		Play{SeasonGames: 20, First: 0.05, Beats: 0.74},
		[]workload.Step{
			{Pattern: PostScore, Weight: 40, Entity: "game", Keys: workload.Zipf{S: 1.2}},
			{Pattern: TopScores, Weight: 30, Entity: "game", Keys: workload.Zipf{S: 1.2}},
			{Pattern: PlayerBest, Weight: 20, Entity: "player"},
			{Pattern: PlayerBests, Weight: 10, Entity: "player"},
		})
	// LaunchDay is two new games going live: most posts are a player's
	// first score in one of them, each an upsert that writes the game's
	// ByGame partition. The table is warmed for the launch, which adds
	// partitions but never lifts one game's partition.
	LaunchDay = launchDay()
)

func launchDay() workload.Scenario {
	sc := Scenario("launch-day", "two new games go live: most posts are first scores, upserts onto each game's ByGame partition", 500,
		Play{SeasonGames: 20, LaunchGames: 2, First: 0.8, Beats: 0.75},
		[]workload.Step{
			{Pattern: PostScore, Weight: 75, Entity: "game"},
			{Pattern: TopScores, Weight: 20, Entity: "game"},
			{Pattern: PlayerBest, Weight: 5, Entity: "player"},
		})
	sc.Warm = workload.Throughput{Reads: 36_000, Writes: 12_000}
	return sc
}
