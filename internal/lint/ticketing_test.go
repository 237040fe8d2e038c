package lint_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// ticketing is a design of the specs' own, kept out of the catalog: events
// whose item counts the seats left, and their seats in the event's
// partition. A hold is one transaction that takes 2 to 4 open seats and
// takes them off the event's seatsLeft, so at an on-sale moment every hold
// writes the one event item.
var ticketing = designs.Design{
	Name:    "ticketing",
	Summary: "events with a seatsLeft counter and their seats; holds take seats and count them off",
	Schema:  ticketSchema,
	Patterns: []designs.Pattern{
		{ID: tkCreateEvent, Name: "create event", Op: designs.PutItem, Index: designs.MainTable},
		{ID: tkHoldSeats, Name: "hold seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + maxHold},
		{ID: tkAddSeats, Name: "add seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + maxHold},
		{ID: tkGetEvent, Name: "read event", Op: designs.GetItem, Index: designs.MainTable},
		{ID: tkReleaseHolds, Name: "release a holder's seats", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + maxHold,
			Doc: "Query the event's seats the holder holds, then one transaction"},
	},
}

const (
	tkCreateEvent  designs.PatternID = "TK-01"
	tkHoldSeats    designs.PatternID = "TK-02"
	tkAddSeats     designs.PatternID = "TK-03"
	tkGetEvent     designs.PatternID = "TK-04"
	tkReleaseHolds designs.PatternID = "TK-05"
	maxHold                          = 4
)

var (
	ticketSchema = designs.Schema{PK: "PK", SK: "SK"}
	errSoldOut   = designs.Refusal("not enough seats left")
	errSeatTaken = designs.Refusal("seat taken")
)

func eventPK(id string) string { return "EVENT#" + id }
func seatSK(n int) string      { return fmt.Sprintf("SEAT#%04d", n) }

const eventSK = "EVENT"

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

// tickets is a handle on one ticketing table.
type tickets struct {
	db    designs.DB
	table string
}

func (t tickets) createEvent(ctx context.Context, id, name string) error {
	return designs.PutNew(ctx, t.db, t.table, ticketSchema, eventItem{PK: eventPK(id), SK: eventSK, Name: name})
}

// holdSeats takes the open seats for holder and as many off seatsLeft.
func (t tickets) holdSeats(ctx context.Context, event string, seats []int, holder string) error {
	tx := designs.Tx{Table: t.table}
	tx.Update(ticketSchema.Key(eventPK(event), eventSK), expression.Add(expression.Name("seatsLeft"), expression.Value(-len(seats))),
		expression.Name("seatsLeft").GreaterThanEqual(expression.Value(len(seats))), designs.Because(errSoldOut))
	for _, n := range seats {
		tx.Update(ticketSchema.Key(eventPK(event), seatSK(n)), expression.Set(expression.Name("status"), expression.Value("held")).
			Set(expression.Name("holder"), expression.Value(holder)),
			expression.Name("status").Equal(expression.Value("open")), designs.Because(errSeatTaken))
	}
	if err := tx.Write(ctx, t.db); err != nil {
		return fmt.Errorf("%s: event %s: %w", tkHoldSeats, event, err)
	}
	return nil
}

// addSeats puts new open seats from seat first on and counts them in.
func (t tickets) addSeats(ctx context.Context, event string, first, n int) error {
	tx := designs.Tx{Table: t.table}
	for i := range n {
		tx.Put(seatItem{PK: eventPK(event), SK: seatSK(first + i), Status: "open"}, ticketSchema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	}
	tx.Update(ticketSchema.Key(eventPK(event), eventSK), expression.Add(expression.Name("seatsLeft"), expression.Value(n)),
		ticketSchema.IsStored(), designs.Because(designs.ErrNotFound))
	if err := tx.Write(ctx, t.db); err != nil {
		return fmt.Errorf("%s: event %s: %w", tkAddSeats, event, err)
	}
	return nil
}

func (t tickets) getEvent(ctx context.Context, event string) error {
	_, err := designs.Get[eventItem](ctx, t.db, t.table, ticketSchema.Key(eventPK(event), eventSK), false)
	return err
}

// releaseHolds finds the holder's seats with a Query first: the in-memory
// table lint seeds serves no Query, so lint cannot probe it.
func (t tickets) releaseHolds(ctx context.Context, event, holder string) error {
	_, _, err := ticketSchema.QueryPage(ctx, t.db, designs.PageQuery{Table: t.table, Size: maxHold,
		Key: expression.Key(ticketSchema.PK).Equal(expression.Value(eventPK(event)))})
	if err != nil {
		return fmt.Errorf("%s: event %s: %w", tkReleaseHolds, event, err)
	}
	return nil
}

// ticketScenario is a scenario of the ticketing design: every pattern in
// its mix, each step drawing from the driver's event pool, seats events
// seeded with seats seats each.
func ticketScenario(name string, events, seats int, creates bool) workload.Scenario {
	mix := []workload.Step{
		{Pattern: tkHoldSeats, Weight: 50, Entity: "event"},
		{Pattern: tkAddSeats, Weight: 5, Entity: "event"},
		{Pattern: tkGetEvent, Weight: 40, Entity: "event"},
		{Pattern: tkReleaseHolds, Weight: 5, Entity: "event"},
	}
	if creates {
		mix = append(mix, workload.Step{Pattern: tkCreateEvent, Weight: 1})
	}
	return workload.Scenario{Name: "ticketing/" + name, Design: ticketing, Pool: events,
		Pacer: vegeta.ConstantPacer{Freq: 50, Per: time.Second}, Duration: 10 * time.Second, Mix: mix,
		Driver: func(db designs.DB, table string, _ int64) workload.Driver {
			return &ticketDriver{t: tickets{db: db, table: table}, seats: seats}
		}}
}

var (
	// browse: many small events, holds spread over them.
	ticketBrowse = ticketScenario("browse", 200, 10, true)
	// onSale: one event goes on sale and every hold is for it.
	ticketOnSale = ticketScenario("on-sale", 1, 500, false)
)

// ticketDriver seeds n events of seats seats each and calls the patterns
// on the key-th of them, as a generated driver does: the key indexes the
// event pool, which the engine draws within (Pools).
type ticketDriver struct {
	t      tickets
	seats  int
	events []*ticketEvent
	made   atomic.Int64
}

// ticketEvent is what the driver knows of one event: its next seat to hold
// and its next seat number to add.
type ticketEvent struct {
	id         string
	held, next atomic.Int64
}

func (d *ticketDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	l := fixtures.NewLoader(d.t.db, d.t.table, ticketSchema)
	return l.Each(ctx, n, progress, func(i int) error {
		e := &ticketEvent{id: fmt.Sprintf("e%05d", i)}
		e.next.Store(int64(d.seats))
		d.events = append(d.events, e)
		if err := putItem(ctx, l, eventItem{PK: eventPK(e.id), SK: eventSK, Name: "event " + e.id, SeatsLeft: d.seats}); err != nil {
			return err
		}
		for s := range d.seats {
			if err := putItem(ctx, l, seatItem{PK: eventPK(e.id), SK: seatSK(s), Status: "open"}); err != nil {
				return err
			}
		}
		return nil
	})
}

func putItem(ctx context.Context, l *fixtures.Loader, v any) error {
	return designs.PutNew(ctx, l, l.Table(), ticketSchema, v)
}

func (d *ticketDriver) Pools() workload.Pools { return workload.Pools{"event": len(d.events)} }

func (d *ticketDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	switch p {
	case tkCreateEvent:
		id := fmt.Sprintf("new%05d", d.made.Add(1))
		return d.t.createEvent(ctx, id, "event "+id)
	}
	e := d.events[key] // out of range for a key past the pool, as in a generated driver
	switch p {
	case tkHoldSeats:
		n := 2 + r.IntN(maxHold-1)
		first := int(e.held.Add(int64(n))) - n
		seats := make([]int, n)
		for i := range seats {
			seats[i] = first + i
		}
		return d.t.holdSeats(ctx, e.id, seats, fmt.Sprintf("fan%d", r.IntN(1_000_000)))
	case tkAddSeats:
		n := 2 + r.IntN(maxHold-1)
		return d.t.addSeats(ctx, e.id, int(e.next.Add(int64(n)))-n, n)
	case tkGetEvent:
		return d.t.getEvent(ctx, e.id)
	case tkReleaseHolds:
		return d.t.releaseHolds(ctx, e.id, "fan0")
	}
	return fmt.Errorf("ticketing %s: pattern not driven", p)
}
