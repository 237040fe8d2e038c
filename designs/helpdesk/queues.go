package helpdesk

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"

	"github.com/ddbharness/ddbharness/designs"
)

// MaxPageSize is the largest page a queue hands out. DynamoDB also stops a
// page at 1 MB, so a page may hold fewer tickets and still have a Next.
const MaxPageSize = 500

// Page is one page of a queue; pass Next as the next call's After to read
// on. Next is empty on the last page.
type Page struct {
	Tickets []Ticket
	Next    designs.Cursor
}

// RegionQuery asks for a page of one tenant's tickets in one region.
// Status, when set, keeps one status; Since, when set (Unix milliseconds),
// keeps the tickets opened then or later, and needs a Status: ByTenantRegion
// sorts by Status first, and DynamoDB accepts a condition on a sort key
// attribute only when every attribute before it is given by equality.
type RegionQuery struct {
	Tenant, Region string
	Status         Status
	Since          int64
	Size           int
	After          designs.Cursor
}

// ListRegion is AP-03 (ByTenantRegion, Query): the region's queue, newest
// first within a status (with no Status, the statuses come in reverse
// alphabetical order: pending, open, closed). The partition is the
// (tenant, region) pair, given by equality as a multi-attribute partition
// key must be. A query DynamoDB would refuse (Since without Status) is
// designs.ErrInvalidInput before any call, with DynamoDB's own rule in the
// message. Eventually consistent: a ticket opened a moment ago may be
// missing from the page.
func (t Table) ListRegion(ctx context.Context, q RegionQuery) (Page, error) {
	if q.Tenant == "" || q.Region == "" {
		return Page{}, fmt.Errorf("%s: %w: tenant and region are required", ListRegionID, designs.ErrInvalidInput)
	}
	key := Schema.KeyQuery(ByTenantRegion).Equal(attrTenant, q.Tenant).Equal(attrRegion, q.Region)
	if q.Status != "" {
		key = key.Equal(attrStatus, string(q.Status))
	}
	if q.Since > 0 {
		key = key.GreaterThanEqual(attrOpenedAt, q.Since)
	}
	return t.page(ctx, ListRegionID, ByTenantRegion, key, true, q.Size, q.After)
}

// AgentQueue is AP-05 (ByAgent, Query): the tickets an agent has within a
// tenant, most urgent first, oldest first within a priority (both numbers,
// so priority 2 comes before 10). AtMost, when set, keeps the tickets of
// that priority or more urgent: a range on the first sort key attribute,
// which DynamoDB allows because it is the last one the query names. Only
// assigned tickets are in ByAgent, so the read never touches an open or
// closed one. Eventually consistent.
func (t Table) AgentQueue(ctx context.Context, tenant, agent string, atMost, size int, after designs.Cursor) (Page, error) {
	if tenant == "" || agent == "" {
		return Page{}, fmt.Errorf("%s: %w: tenant and agent are required", AgentQueueID, designs.ErrInvalidInput)
	}
	key := Schema.KeyQuery(ByAgent).Equal(attrTenant, tenant).Equal(attrAgent, agent)
	if atMost > 0 {
		key = key.LessThanEqual(attrPriority, atMost)
	}
	return t.page(ctx, AgentQueueID, ByAgent, key, false, size, after)
}

// page reads one page of index under the checked key condition.
func (t Table) page(ctx context.Context, id designs.PatternID, index string, key designs.KeyQuery, newestFirst bool, size int, after designs.Cursor) (Page, error) {
	if size < 1 || size > MaxPageSize {
		return Page{}, fmt.Errorf("%s: %w: page size %d: want 1 to %d", id, designs.ErrInvalidInput, size, MaxPageSize)
	}
	cond, err := key.Build()
	if err != nil {
		return Page{}, fmt.Errorf("%s: %w", id, err)
	}
	items, next, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{
		Table: t.Name, Index: index, Key: cond, Backward: newestFirst, Size: size, After: after,
	})
	if err != nil {
		return Page{}, fmt.Errorf("%s: %w", id, err)
	}
	p := Page{Next: next}
	if err := attributevalue.UnmarshalListOfMaps(items, &p.Tickets); err != nil {
		return Page{}, fmt.Errorf("%s: unmarshal: %w", id, err)
	}
	return p, nil
}
