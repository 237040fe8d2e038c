package emulate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// TestForecastHoldsWhateverTheConflicts: two runs of one mix of holds (a
// transaction that counts the hold on its event's item and writes the
// hold beside it), one meeting many transaction conflicts and one few, as
// a slower or faster test bed would, forecast their first throttle at one
// rate: the model puts back the demand of a hold given up for a conflict
// as it puts back a throttled one's.
func TestForecastHoldsWhateverTheConflicts(t *testing.T) {
	const holds = 40
	many, manyDenied := holdsRun(t, holds, 10)
	few, fewDenied := holdsRun(t, holds, 1)
	if math.Abs(many/few-1) > 0.03 {
		t.Errorf("first throttle at %.1f requests/s with 10 of %d holds given up for a conflict, %.1f with 1: want one rate, within 3%%", many, holds, few)
	}
	if manyDenied != 10 || fewDenied != 1 {
		t.Errorf("writes denied on the event's key: %d and %d, want one for each hold given up (10 and 1), none for a sending resent", manyDenied, fewDenied)
	}
}

// holdsRun runs holds through the SDK with the emulator installed, on a
// fake answer from DynamoDB and the emulator's clock moving a fifth of a
// second a hold, givenUp of them (spread over the run) in conflict with
// another transaction in flight on the event's item at each sending. It
// returns the capacity model's first throttle, as bench builds the model,
// and the writes the emulator counts denied on the event's key.
func holdsRun(t *testing.T, holds, givenUp int) (rate float64, denied int64) {
	t.Helper()
	s := designs.Schema{PK: "PK", SK: "SK"}
	start := time.Unix(1_800_000_000, 0)
	clock := start
	e := New(s, Config{Now: func() time.Time { return clock }})
	opts := dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), HTTPClient: ddbtest.Answer(`{}`),
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")}
	db := meter.NewClient(dynamodb.New(opts, e.Install), s)
	l := ledger.NewLedger(s)
	Attach(e, db, func(_ context.Context, o pricing.Observation) []pricing.Charge { return l.Observe(o) })
	e.Enable()

	ctx := designs.WithPattern(context.Background(), "AP-01")
	event := map[string]types.AttributeValue{"PK": str("EVENT#1"), "SK": str("EVENT")}
	hold := func(i int) *designs.Tx {
		tx := &designs.Tx{Table: "t"}
		tx.Update(event, expression.Add(expression.Name("held"), expression.Value(1)), expression.ConditionBuilder{}, nil)
		tx.Put(map[string]string{"PK": "EVENT#1", "SK": fmt.Sprintf("HOLD#%03d", i)}, expression.ConditionBuilder{}, nil)
		return tx
	}
	// other is a transaction on the event's item, held in flight while a
	// hold is to be given up.
	other := e.newCall(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: aws.String("t"), Key: event, UpdateExpression: aws.String("ADD held :one")}}}})
	for i := range holds {
		clock = start.Add(time.Duration(i) * time.Second / 5)
		conflicted := i*givenUp%holds < givenUp
		if conflicted {
			e.mu.Lock()
			e.hold(other, e.now())
			e.mu.Unlock()
		}
		err := hold(i).Write(ctx, db)
		if conflicted {
			e.mu.Lock()
			e.release(other)
			e.mu.Unlock()
		}
		if got := errors.Is(err, designs.ErrTransactionConflict); got != conflicted || !conflicted && err != nil {
			t.Fatalf("hold %d: Write = %v, want it given up for a conflict: %t", i, err, conflicted)
		}
	}
	m := capacity.Model{Schema: s, Requests: int64(holds), Duration: time.Duration(holds) * time.Second / 5}
	e.Inform(&m)
	rep := m.Analyze(l)
	if rep.Ceiling == nil || rep.Ceiling.Key != "EVENT#1" {
		t.Fatalf("first throttle %+v, want the event's partition key", rep.Ceiling)
	}
	return rep.Ceiling.Rate, e.Denied(designs.MainTable, "EVENT#1").Writes
}
