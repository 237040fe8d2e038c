package helpdesk

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order, which is the README's. Specs carry them as
// labels and scenarios name them, so a typo does not compile.
const (
	OpenTicketID   designs.PatternID = "AP-01"
	GetTicketID    designs.PatternID = "AP-02"
	ListRegionID   designs.PatternID = "AP-03"
	AssignTicketID designs.PatternID = "AP-04"
	AgentQueueID   designs.PatternID = "AP-05"
	CloseTicketID  designs.PatternID = "AP-06"
)

// Design is the helpdesk catalog: verify's coverage gate wants a passing spec
// labelled with each ID, and bench scenarios may mix only these.
var Design = designs.Design{
	Name:    "helpdesk",
	Summary: "support tickets of many tenants, each its own partition; multi-attribute GSIs by (tenant, region) and (tenant, agent)",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: OpenTicketID, Name: "open ticket", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "write a new open ticket for a tenant and region; a second open of its ID is refused"},
		{ID: GetTicketID, Name: "get ticket", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "read one ticket by ID"},
		{ID: ListRegionID, Name: "list a region's queue", Op: designs.Query, Index: ByTenantRegion, Pages: true,
			Doc: "a tenant's tickets in one region, of one status (or all), newest first, optionally opened since a time"},
		{ID: AssignTicketID, Name: "assign ticket", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "give a ticket that is not closed to an agent at a priority; it enters the agent's queue"},
		{ID: AgentQueueID, Name: "list an agent's queue", Op: designs.Query, Index: ByAgent, Pages: true,
			Doc: "an agent's tickets within a tenant, most urgent first, oldest first within a priority"},
		{ID: CloseTicketID, Name: "close ticket", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "close a ticket; it leaves its agent's queue and moves to the closed part of its region's queue"},
	},
}
