package scenarios

import (
	"context"
	"math/rand/v2"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// HelpdeskSupportDay is helpdesk's default scenario: customers open
// tickets, agents work their queues and leads watch their regions' queues.
// Tenants are not alike: a few (tenant, region) queues take most of the
// traffic (Zipf), so the report names the hottest pair as the partition of
// ByTenantRegion that limits first, both of its values.
var HelpdeskSupportDay = workload.Scenario{
	Name:     "helpdesk/support-day",
	About:    "tickets opened, assigned, worked and closed; a few big tenants' regional queues take most of the traffic",
	Design:   helpdesk.Design,
	Pool:     240,
	Pacer:    vegeta.ConstantPacer{Freq: 60, Per: time.Second},
	Duration: 10 * time.Second,
	// Each step names the pool its key indexes (the driver's Pools).
	Mix: []workload.Step{
		{Pattern: helpdesk.OpenTicketID, Weight: 25, Entity: "queue", Keys: workload.Zipf{S: 1.3}},
		{Pattern: helpdesk.ListRegionID, Weight: 25, Entity: "queue", Keys: workload.Zipf{S: 1.3}},
		{Pattern: helpdesk.GetTicketID, Weight: 20, Entity: "ticket", Keys: workload.Zipf{S: 1.1}},
		{Pattern: helpdesk.AssignTicketID, Weight: 12, Entity: "ticket"},
		{Pattern: helpdesk.AgentQueueID, Weight: 13, Entity: "agent", Keys: workload.Zipf{S: 1.1}},
		{Pattern: helpdesk.CloseTicketID, Weight: 5, Entity: "ticket"},
	},
	Driver: newHelpdeskDriver,
}

// helpdeskDriver calls the helpdesk patterns on a seeded pool. A step's key
// indexes the pool its Entity names: the k-th ticket, (tenant, region)
// queue or (tenant, agent) pair. The pool never changes after Seed, so
// calls read it without a lock; a ticket the run closed refuses the
// assignments and closes that follow (ErrClosed, a refusal, not an error).
type helpdeskDriver struct {
	t    helpdesk.Table
	seed int64
	pool fixtures.SeededHelpdesk
}

func newHelpdeskDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &helpdeskDriver{t: helpdesk.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes n tickets through the loader.
func (d *helpdeskDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewHelpdesk(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, helpdesk.Schema), n, progress)
	d.pool = pool
	return err
}

// Pools counts what Seed made, by the names the mix's steps use.
func (d *helpdeskDriver) Pools() workload.Pools {
	return workload.Pools{
		"ticket": len(d.pool.Tickets),
		"queue":  len(d.pool.Queues),
		"agent":  len(d.pool.Agents),
	}
}

// helpdeskPageSize is the page a queue screen asks for.
const helpdeskPageSize = 25

// Call runs p on the key-th entity of its step's pool.
func (d *helpdeskDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	if len(d.pool.Tickets) == 0 {
		return ErrNotSeeded
	}
	f := fixtures.Live[fixtures.Helpdesk](r, time.Now())
	var err error
	switch p {
	case helpdesk.OpenTicketID:
		q := d.pool.Queues[key]
		err = d.t.OpenTicket(ctx, f.Ticket(q.Tenant, q.Region))
	case helpdesk.GetTicketID:
		_, err = d.t.GetTicket(ctx, d.pool.Tickets[key].ID)
	case helpdesk.ListRegionID:
		q := d.pool.Queues[key]
		_, err = d.t.ListRegion(ctx, helpdesk.RegionQuery{Tenant: q.Tenant, Region: q.Region, Status: helpdesk.Open, Size: helpdeskPageSize})
	case helpdesk.AssignTicketID:
		_, err = d.t.AssignTicket(ctx, d.pool.Tickets[key].ID, d.pool.AgentFor(key, r.IntN(2)).Agent, f.Priority())
	case helpdesk.AgentQueueID:
		a := d.pool.Agents[key]
		_, err = d.t.AgentQueue(ctx, a.Tenant, a.Agent, 0, helpdeskPageSize, "")
	case helpdesk.CloseTicketID:
		_, err = d.t.CloseTicket(ctx, d.pool.Tickets[key].ID)
	default:
		err = unknown(helpdesk.Design.Name, p)
	}
	return err
}
