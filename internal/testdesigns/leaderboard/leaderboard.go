// Package leaderboard is a design for specs and bench runs only, kept out
// of designs/all and the product catalog: players post scores per game,
// and each player keeps one item per game holding their best. Posting a
// score is one conditional UpdateItem that keeps it only when it beats the
// stored best, so a score that does not is refused by design
// (ErrNotABest), and the first score of a player in a game creates the
// item (an upsert). The ByGame index orders a game's bests by score for
// its top scores, so every best the table keeps is also a write to the
// index partition of its game: on a launch day most posts are first
// scores onto a few new games, each game's index partition hot.
package leaderboard

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Design is the leaderboard design: its schema and patterns.
var Design = designs.Design{
	Name:    "leaderboard",
	Summary: "a player's best score per game, kept only when a new score beats it; a game's bests ordered by score on ByGame",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: PostScore, Name: "post a score", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "keep the score as the player's best in the game only if it beats the stored one; the first score creates the item"},
		{ID: TopScores, Name: "top scores of a game", Op: designs.Query, Index: ByGame, MaxItems: MaxTop,
			Doc: "the game's best scores, highest first"},
		{ID: PlayerBest, Name: "a player's best in a game", Op: designs.GetItem, Index: designs.MainTable},
		{ID: PlayerBests, Name: "a player's bests in every game", Op: designs.Query, Index: designs.MainTable, MaxItems: MaxGames},
	},
}

// The patterns.
const (
	PostScore   designs.PatternID = "LB-01"
	TopScores   designs.PatternID = "LB-02"
	PlayerBest  designs.PatternID = "LB-03"
	PlayerBests designs.PatternID = "LB-04"
)

// ByGame is the index of a game's bests by score.
const ByGame = "ByGame"

// MaxTop is the most scores TopScores lists; MaxGames the most games
// PlayerBests lists.
const (
	MaxTop   = 100
	MaxGames = 100
)

// Schema is the table: a player's bests under the player's partition key,
// one item a game, and ByGame keyed by the game and the score (a number,
// so that the index orders scores by value).
var Schema = designs.Schema{PK: "PK", SK: "SK",
	Types: map[string]types.ScalarAttributeType{attrScore: types.ScalarAttributeTypeN},
	GSIs:  []designs.Index{{Name: ByGame, PK: attrGame, SK: attrScore}}}

const (
	attrGame  = "game"
	attrScore = "score"
)

// ErrNotABest is a score at or below the player's stored best in the game:
// the table keeps the best, so the post is refused.
var ErrNotABest = designs.Refusal("score does not beat the player's best")

// PlayerPK is a player's partition key, and BestSK the sort key of their
// best in a game.
func PlayerPK(player string) string { return "PLAYER#" + player }

// BestSK is the sort key of a player's best in game.
func BestSK(game string) string { return bestPrefix + game }

const bestPrefix = "GAME#"

// Best is a player's best score in one game.
type Best struct {
	Player string `dynamodbav:"player"`
	Game   string `dynamodbav:"game"`
	Score  int64  `dynamodbav:"score"`
}

// Table is a handle on one leaderboard table.
type Table struct {
	DB   designs.DB
	Name string
}

// PostScore is LB-01 (main table, UpdateItem): the score becomes the
// player's best in the game when nothing is stored there yet or it beats
// what is; else ErrNotABest, and the stored best stays. A negative score,
// or an empty player or game, is designs.ErrInvalidInput.
func (t Table) PostScore(ctx context.Context, player, game string, score int64) (Best, error) {
	if player == "" || game == "" || score < 0 {
		return Best{}, fmt.Errorf("%s: player %q game %q score %d: %w: want a player, a game and a score of 0 or more", PostScore, player, game, score, designs.ErrInvalidInput)
	}
	set := expression.Set(expression.Name("player"), expression.Value(player)).
		Set(expression.Name(attrGame), expression.Value(game)).
		Set(expression.Name(attrScore), expression.Value(score))
	beats := Schema.IsNew().Or(expression.Name(attrScore).LessThan(expression.Value(score)))
	b, err := designs.Update[Best](ctx, t.DB, t.Name, Schema.Key(PlayerPK(player), BestSK(game)), set, beats)
	if designs.IsConditionFailed(err) {
		err = ErrNotABest
	}
	if err != nil {
		return Best{}, fmt.Errorf("%s: player %s game %s: %w", PostScore, player, game, err)
	}
	return b, nil
}

// TopScores is LB-02 (ByGame, Query): the game's n best scores, highest
// first; n from 1 to MaxTop, else designs.ErrInvalidInput.
func (t Table) TopScores(ctx context.Context, game string, n int) ([]Best, error) {
	if n < 1 || n > MaxTop {
		return nil, fmt.Errorf("%s: game %s: %d scores: %w: want 1 to %d", TopScores, game, n, designs.ErrInvalidInput, MaxTop)
	}
	items, _, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{Table: t.Name, Index: ByGame, Backward: true, Size: n,
		Key: expression.Key(attrGame).Equal(expression.Value(game))})
	if err != nil {
		return nil, fmt.Errorf("%s: game %s: %w", TopScores, game, err)
	}
	return bests(items, TopScores, game)
}

// PlayerBest is LB-03 (main table, GetItem): the player's best in the
// game, designs.ErrNotFound before their first score there.
func (t Table) PlayerBest(ctx context.Context, player, game string) (Best, error) {
	b, err := designs.Get[Best](ctx, t.DB, t.Name, Schema.Key(PlayerPK(player), BestSK(game)), false)
	if err != nil {
		return Best{}, fmt.Errorf("%s: player %s game %s: %w", PlayerBest, player, game, err)
	}
	return b, nil
}

// PlayerBests is LB-04 (main table, Query): the player's bests in up to
// MaxGames games, in order of game.
func (t Table) PlayerBests(ctx context.Context, player string) ([]Best, error) {
	items, _, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{Table: t.Name, Size: MaxGames,
		Key: expression.Key(Schema.PK).Equal(expression.Value(PlayerPK(player))).And(expression.Key(Schema.SK).BeginsWith(bestPrefix))})
	if err != nil {
		return nil, fmt.Errorf("%s: player %s: %w", PlayerBests, player, err)
	}
	return bests(items, PlayerBests, player)
}

func bests(items []map[string]types.AttributeValue, p designs.PatternID, key string) ([]Best, error) {
	out := []Best{}
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("%s: %s: unmarshal: %w", p, key, err)
	}
	return out, nil
}
