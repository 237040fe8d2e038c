package leaderboard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// driver seeds players with bests in the season's games and posts scores
// as its Play says. It keeps each best it posted, so that a post meant to
// beat the best does, and one meant not to is refused.
type driver struct {
	t       Table
	play    Play
	players []string
	games   []string // the games the "game" keys pick

	mu     sync.RWMutex
	best   map[string]*atomic.Int64 // player/game → the highest score posted
	played map[string][]string      // game → the players with a best in it
	byWho  map[string][]string      // player → the games they have a best in
	joined atomic.Int64             // new players so far
}

func newDriver(t Table, p Play) *driver {
	return &driver{t: t, play: p, best: map[string]*atomic.Int64{}, played: map[string][]string{}, byWho: map[string][]string{}}
}

// SeasonGame and LaunchGame name the season's and the launch's games.
func SeasonGame(i int) string { return fmt.Sprintf("season-%02d", i) }

// LaunchGame names the i-th new game of a launch.
func LaunchGame(i int) string { return fmt.Sprintf("launch-%d", i) }

// Seed gives each of n players a best in PlayedGames season games, through
// LB-01 on the loader.
func (d *driver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	d.games = nil
	for i := range d.play.LaunchGames {
		d.games = append(d.games, LaunchGame(i))
	}
	if len(d.games) == 0 {
		for i := range d.play.SeasonGames {
			d.games = append(d.games, SeasonGame(i))
		}
	}
	l := fixtures.NewLoader(d.t.DB, d.t.Name, Schema)
	seed := Table{DB: l, Name: l.Table()}
	return l.Each(ctx, n, progress, func(i int) error {
		player := fmt.Sprintf("p%05d", i)
		d.players = append(d.players, player)
		for j := range min(PlayedGames, d.play.SeasonGames) {
			game := SeasonGame((i + j*7) % d.play.SeasonGames)
			score := int64(100 + (i*37+j*11)%900)
			if _, err := seed.PostScore(ctx, player, game, score); err != nil {
				return err
			}
			d.remember(player, game, score)
		}
		return nil
	})
}

func (d *driver) Pools() workload.Pools {
	return workload.Pools{"player": len(d.players), "game": len(d.games)}
}

// remember notes a player's best in a game, kept as the highest posted.
func (d *driver) remember(player, game string, score int64) {
	d.mu.Lock()
	b, ok := d.best[player+"/"+game]
	if !ok {
		b = &atomic.Int64{}
		d.best[player+"/"+game] = b
		d.played[game] = append(d.played[game], player)
		d.byWho[player] = append(d.byWho[player], game)
	}
	d.mu.Unlock()
	for old := b.Load(); score > old && !b.CompareAndSwap(old, score); old = b.Load() {
	}
}

func (d *driver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	switch p {
	case PostScore:
		return d.post(ctx, d.games[key], r)
	case TopScores:
		_, err := d.t.TopScores(ctx, d.games[key], 10)
		return err
	case PlayerBest:
		player := d.players[key]
		d.mu.RLock()
		games := d.byWho[player]
		game := games[r.IntN(len(games))]
		d.mu.RUnlock()
		_, err := d.t.PlayerBest(ctx, player, game)
		return err
	case PlayerBests:
		_, err := d.t.PlayerBests(ctx, d.players[key])
		return err
	}
	return fmt.Errorf("leaderboard %s: %w", p, scenarios.ErrUnknownPattern)
}

// FirstScore opens the error of a post that was a new player's first
// score, so that a spec can tell the upserts' outcomes from the others'.
const FirstScore = "first score"

// post posts a score in game: a new player's first, or one of the game's
// players beating their best (Beats of the time) or not.
func (d *driver) post(ctx context.Context, game string, r *rand.Rand) error {
	d.mu.RLock()
	players := d.played[game]
	var player string
	if len(players) > 0 {
		player = players[r.IntN(len(players))]
	}
	b := d.best[player+"/"+game]
	d.mu.RUnlock()
	if player == "" || r.Float64() < d.play.First {
		player = fmt.Sprintf("n%06d", d.joined.Add(1))
		score := int64(r.IntN(1000))
		d.remember(player, game, score)
		if _, err := d.t.PostScore(ctx, player, game, score); err != nil {
			return fmt.Errorf("%s: %w", FirstScore, err)
		}
		return nil
	}
	best := b.Load()
	score := best - int64(r.IntN(int(min(best, 100))+1)) // at or below the best: refused
	if r.Float64() < d.play.Beats {
		score = best + 1 + int64(r.IntN(100))
		d.remember(player, game, score)
	}
	_, err := d.t.PostScore(ctx, player, game, score)
	return err
}
