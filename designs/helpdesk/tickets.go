package helpdesk

import (
	"context"
	"fmt"

	"github.com/ddbharness/ddbharness/designs"
)

// OpenTicket is AP-01 (main table, PutItem): one conditional put, so of any
// number of concurrent opens of one ID exactly one wins (a taken ID is
// designs.ErrAlreadyExists). The ticket is stored open and unassigned,
// whatever v says of its status and agent. A ticket missing its ID,
// tenant, region, subject or opening time, or with a priority outside
// Urgent..Low, is designs.ErrInvalidInput before any call: an item without
// a tenant or region would silently be left out of ByTenantRegion.
func (t Table) OpenTicket(ctx context.Context, v Ticket) error {
	if v.ID == "" || v.Tenant == "" || v.Region == "" || v.Subject == "" || v.OpenedAt <= 0 {
		return fmt.Errorf("%s: ticket: %w: ID, tenant, region, subject and opening time are required", OpenTicketID, designs.ErrInvalidInput)
	}
	if v.Priority < Urgent || v.Priority > Low {
		return fmt.Errorf("%s: ticket %s: %w: priority %d: want %d (urgent) to %d (low)", OpenTicketID, v.ID, designs.ErrInvalidInput, v.Priority, Urgent, Low)
	}
	v.Status, v.Agent = Open, ""
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, newTicketItem(v)); err != nil {
		return fmt.Errorf("%s: ticket %s: %w", OpenTicketID, v.ID, err)
	}
	return nil
}

// GetTicket is AP-02 (main table, GetItem): one strongly consistent read, so
// an agent sees an assignment or a close at once (it costs twice an
// eventual read). An unknown ID is designs.ErrNotFound.
func (t Table) GetTicket(ctx context.Context, id string) (Ticket, error) {
	v, err := designs.Get[Ticket](ctx, t.DB, t.Name, Schema.Key(TicketPK(id), TicketSK()), true)
	if err != nil {
		return Ticket{}, fmt.Errorf("%s: ticket %s: %w", GetTicketID, id, err)
	}
	return v, nil
}
