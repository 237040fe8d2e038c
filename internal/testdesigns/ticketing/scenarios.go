package ticketing

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// Scenario is a scenario of the design named "ticketing/"+name: every
// pattern in its mix, each step drawing from the driver's event pool,
// events events seeded with seats seats each, 50 calls a second for 10 s.
func Scenario(name string, events, seats int, creates bool) workload.Scenario {
	mix := []workload.Step{
		{Pattern: HoldSeats, Weight: 50, Entity: "event"},
		{Pattern: AddSeats, Weight: 5, Entity: "event"},
		{Pattern: GetEvent, Weight: 40, Entity: "event"},
		{Pattern: ReleaseHolds, Weight: 5, Entity: "event"},
	}
	if creates {
		mix = append(mix, workload.Step{Pattern: CreateEvent, Weight: 1})
	}
	return workload.Scenario{Name: "ticketing/" + name, Design: Design, Pool: events,
		Pacer: vegeta.ConstantPacer{Freq: 50, Per: time.Second}, Duration: 10 * time.Second, Mix: mix,
		Driver: func(db designs.DB, table string, _ int64) workload.Driver {
			return &driver{t: Table{DB: db, Name: table}, seats: seats}
		}}
}

var (
	// Browse is many small events, holds spread over them.
	Browse = Scenario("browse", 200, 10, true)
	// OnSale is one event going on sale: every hold is for it.
	OnSale = Scenario("on-sale", 1, 500, false)
)

// OnSaleEvent is the id of the event OnSale seeds.
const OnSaleEvent = "e00000"

// driver seeds n events of seats seats each and calls the patterns on the
// key-th of them, as a generated driver does: the key indexes the event
// pool, which the engine draws within (Pools).
type driver struct {
	t      Table
	seats  int
	events []*event
	made   atomic.Int64
}

// event is what the driver knows of one event: its next seat to hold and
// its next seat number to add.
type event struct {
	id         string
	held, next atomic.Int64
}

func (d *driver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	l := fixtures.NewLoader(d.t.DB, d.t.Name, Schema)
	return l.Each(ctx, n, progress, func(i int) error {
		e := &event{id: fmt.Sprintf("e%05d", i)}
		e.next.Store(int64(d.seats))
		d.events = append(d.events, e)
		if err := putItem(ctx, l, eventItem{PK: EventPK(e.id), SK: EventSK, Name: "event " + e.id, SeatsLeft: d.seats}); err != nil {
			return err
		}
		for s := range d.seats {
			if err := putItem(ctx, l, seatItem{PK: EventPK(e.id), SK: seatSK(s), Status: "open"}); err != nil {
				return err
			}
		}
		return nil
	})
}

func putItem(ctx context.Context, l *fixtures.Loader, v any) error {
	return designs.PutNew(ctx, l, l.Table(), Schema, v)
}

func (d *driver) Pools() workload.Pools { return workload.Pools{"event": len(d.events)} }

func (d *driver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	if p == CreateEvent {
		id := fmt.Sprintf("new%05d", d.made.Add(1))
		return d.t.createEvent(ctx, id, "event "+id)
	}
	e := d.events[key] // out of range for a key past the pool, as in a generated driver
	switch p {
	case HoldSeats:
		n := 2 + r.IntN(MaxHold-1)
		first := int(e.held.Add(int64(n))) - n
		seats := make([]int, n)
		for i := range seats {
			seats[i] = first + i
		}
		return d.t.holdSeats(ctx, e.id, seats, fmt.Sprintf("fan%d", r.IntN(1_000_000)))
	case AddSeats:
		n := 2 + r.IntN(MaxHold-1)
		return d.t.addSeats(ctx, e.id, int(e.next.Add(int64(n)))-n, n)
	case GetEvent:
		return d.t.getEvent(ctx, e.id)
	case ReleaseHolds:
		return d.t.releaseHolds(ctx, e.id, "fan0")
	}
	return fmt.Errorf("ticketing %s: %w", p, scenarios.ErrUnknownPattern)
}
