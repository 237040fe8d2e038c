// Package ticketing is a design for specs only, kept out of designs/all
// and the product catalog: events whose item counts the seats left, and
// their seats in the event's partition. A hold is one transaction that
// takes 2 to 4 open seats and takes them off the event's seatsLeft, so at
// an on-sale moment every hold writes the one event item: a counter item
// every transaction writes. The lint's specs and bench's specs run it.
package ticketing

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// Design is the ticketing design: its schema and patterns.
var Design = designs.Design{
	Name:    "ticketing",
	Summary: "events with a seatsLeft counter and their seats; holds take seats and count them off",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: CreateEvent, Name: "create event", Op: designs.PutItem, Index: designs.MainTable},
		{ID: HoldSeats, Name: "hold seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + MaxHold},
		{ID: AddSeats, Name: "add seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + MaxHold},
		{ID: GetEvent, Name: "read event", Op: designs.GetItem, Index: designs.MainTable},
		{ID: ReleaseHolds, Name: "release a holder's seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + MaxHold,
			Doc: "Query the event's seats the holder holds, then one transaction"},
	},
}

// The patterns, and the most seats one hold takes.
const (
	CreateEvent  designs.PatternID = "TK-01"
	HoldSeats    designs.PatternID = "TK-02"
	AddSeats     designs.PatternID = "TK-03"
	GetEvent     designs.PatternID = "TK-04"
	ReleaseHolds designs.PatternID = "TK-05"
	MaxHold                        = 4
)

// Schema is the table: events and their seats under one partition key.
var Schema = designs.Schema{PK: "PK", SK: "SK"}

var (
	errSoldOut   = designs.Refusal("not enough seats left")
	errSeatTaken = designs.Refusal("seat taken")
)

// EventPK is an event's partition key, and EventSK its item's sort key.
func EventPK(id string) string { return "EVENT#" + id }

const EventSK = "EVENT"

// EventItem is the key of event id's item, as reports name an item.
func EventItem(id string) string { return EventPK(id) + " / " + EventSK }

func seatSK(n int) string { return fmt.Sprintf("SEAT#%04d", n) }

type eventItem struct {
	PK, SK    string
	Name      string `dynamodbav:"name"`
	SeatsLeft int    `dynamodbav:"seatsLeft"`
}

type seatItem struct {
	PK, SK string
	Status string `dynamodbav:"status"`
	Holder string `dynamodbav:"holder,omitempty"`
}

// Table is a handle on one ticketing table.
type Table struct {
	DB   designs.DB
	Name string
}

func (t Table) createEvent(ctx context.Context, id, name string) error {
	return designs.PutNew(ctx, t.DB, t.Name, Schema, eventItem{PK: EventPK(id), SK: EventSK, Name: name})
}

// holdSeats takes the open seats for holder and as many off seatsLeft.
func (t Table) holdSeats(ctx context.Context, event string, seats []int, holder string) error {
	tx := designs.Tx{Table: t.Name}
	tx.Update(Schema.Key(EventPK(event), EventSK), expression.Add(expression.Name("seatsLeft"), expression.Value(-len(seats))),
		expression.Name("seatsLeft").GreaterThanEqual(expression.Value(len(seats))), designs.Because(errSoldOut))
	for _, n := range seats {
		tx.Update(Schema.Key(EventPK(event), seatSK(n)), expression.Set(expression.Name("status"), expression.Value("held")).
			Set(expression.Name("holder"), expression.Value(holder)),
			expression.Name("status").Equal(expression.Value("open")), designs.Because(errSeatTaken))
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: event %s: %w", HoldSeats, event, err)
	}
	return nil
}

// addSeats puts new open seats from seat first on and counts them in.
func (t Table) addSeats(ctx context.Context, event string, first, n int) error {
	tx := designs.Tx{Table: t.Name}
	for i := range n {
		tx.Put(seatItem{PK: EventPK(event), SK: seatSK(first + i), Status: "open"}, Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	}
	tx.Update(Schema.Key(EventPK(event), EventSK), expression.Add(expression.Name("seatsLeft"), expression.Value(n)),
		Schema.IsStored(), designs.Because(designs.ErrNotFound))
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: event %s: %w", AddSeats, event, err)
	}
	return nil
}

func (t Table) getEvent(ctx context.Context, event string) error {
	_, err := designs.Get[eventItem](ctx, t.DB, t.Name, Schema.Key(EventPK(event), EventSK), false)
	return err
}

// releaseHolds finds the holder's seats with a Query first: the in-memory
// table lint seeds serves no Query, so lint cannot probe it.
func (t Table) releaseHolds(ctx context.Context, event, holder string) error {
	_, _, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{Table: t.Name, Size: MaxHold,
		Key: expression.Key(Schema.PK).Equal(expression.Value(EventPK(event)))})
	if err != nil {
		return fmt.Errorf("%s: event %s: %w", ReleaseHolds, event, err)
	}
	return nil
}
