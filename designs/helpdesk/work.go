package helpdesk

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// ErrClosed refuses a change to a closed ticket.
var ErrClosed = designs.Refusal("ticket is closed")

// AssignTicket is AP-04 (main table, UpdateItem): it gives the ticket to
// agent at priority and marks it pending. Setting Agent is what puts the
// ticket in ByAgent: the index holds only items carrying every attribute
// of its key. A reassignment moves it to the new agent's queue. An unknown
// ticket is designs.ErrNotFound, a closed one ErrClosed; the failed
// condition returns the old item, which tells the two apart without a
// second read. Returns the stored ticket.
func (t Table) AssignTicket(ctx context.Context, id, agent string, priority int) (Ticket, error) {
	if id == "" || agent == "" {
		return Ticket{}, fmt.Errorf("%s: ticket %s: %w: ticket ID and agent are required", AssignTicketID, id, designs.ErrInvalidInput)
	}
	if priority < Urgent || priority > Low {
		return Ticket{}, fmt.Errorf("%s: ticket %s: %w: priority %d: want %d (urgent) to %d (low)", AssignTicketID, id, designs.ErrInvalidInput, priority, Urgent, Low)
	}
	update := expression.Set(expression.Name(attrAgent), expression.Value(agent)).
		Set(expression.Name(attrPriority), expression.Value(priority)).
		Set(expression.Name(attrStatus), expression.Value(Pending))
	v, err := t.change(ctx, id, update)
	if err != nil {
		return Ticket{}, fmt.Errorf("%s: ticket %s: %w", AssignTicketID, id, err)
	}
	return v, nil
}

// CloseTicket is AP-06 (main table, UpdateItem): it marks the ticket closed
// and REMOVEs its agent, which takes it out of ByAgent; in ByTenantRegion
// it moves to the closed part of its region's queue, as its Status is the
// first attribute of that index's sort key. Closing twice is ErrClosed; an
// unknown ticket designs.ErrNotFound. Returns the stored ticket.
func (t Table) CloseTicket(ctx context.Context, id string) (Ticket, error) {
	if id == "" {
		return Ticket{}, fmt.Errorf("%s: ticket: %w: ticket ID is required", CloseTicketID, designs.ErrInvalidInput)
	}
	update := expression.Set(expression.Name(attrStatus), expression.Value(Closed)).
		Remove(expression.Name(attrAgent))
	v, err := t.change(ctx, id, update)
	if err != nil {
		return Ticket{}, fmt.Errorf("%s: ticket %s: %w", CloseTicketID, id, err)
	}
	return v, nil
}

// change applies update to a stored ticket that is not closed.
func (t Table) change(ctx context.Context, id string, update expression.UpdateBuilder) (Ticket, error) {
	notClosed := Schema.IsStored().And(expression.Name(attrStatus).NotEqual(expression.Value(Closed)))
	v, err := designs.Update[Ticket](ctx, t.DB, t.Name, Schema.Key(TicketPK(id), TicketSK()), update, notClosed)
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		err = designs.ErrNotFound
		if ccf.Item != nil {
			err = ErrClosed
		}
	}
	return v, err
}
