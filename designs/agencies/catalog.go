package agencies

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order, which is the design doc's (its patterns 1
// and 2 are split into create, update and delete). Specs carry them as
// labels and scenarios name them, so a typo does not compile.
const (
	// CreateAgencyID is the catalog ID of CreateAgency.
	CreateAgencyID designs.PatternID = "AP-01"
	// UpdateAgencyID is the catalog ID of UpdateAgency.
	UpdateAgencyID designs.PatternID = "AP-02"
	// DeleteAgencyID is the catalog ID of DeleteAgency.
	DeleteAgencyID designs.PatternID = "AP-03"
	// CreateMemberID is the catalog ID of CreateMember.
	CreateMemberID designs.PatternID = "AP-04"
	// UpdateMemberID is the catalog ID of UpdateMember.
	UpdateMemberID designs.PatternID = "AP-05"
	// DeleteMemberID is the catalog ID of DeleteMember.
	DeleteMemberID designs.PatternID = "AP-06"
	// GetAgencyID is the catalog ID of GetAgency.
	GetAgencyID designs.PatternID = "AP-07"
	// ListAgencyMembersID is the catalog ID of ListAgencyMembers.
	ListAgencyMembersID designs.PatternID = "AP-08"
	// ListAgenciesID is the catalog ID of ListAgencies.
	ListAgenciesID designs.PatternID = "AP-09"
	// ListMembershipsID is the catalog ID of ListMemberships.
	ListMembershipsID designs.PatternID = "AP-10"
)

// Design is the agencies catalog.
var Design = designs.Design{
	Name:    "agencies",
	Summary: "multi-tenant agencies and their members; agencies listed by creation time, memberships by idpid",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: CreateAgencyID, Name: "create agency", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "write a new agency; its ID must be free"},
		{ID: UpdateAgencyID, Name: "update agency", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "change an existing agency's name or status and record who changed it and when"},
		{ID: DeleteAgencyID, Name: "delete agency", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + MaxAgencyMembers,
			Doc: "delete an agency together with its members (Query, then one transaction)"},
		{ID: CreateMemberID, Name: "create member", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2,
			Doc: "add a user to an existing agency; the membership must be new"},
		{ID: UpdateMemberID, Name: "update member", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "record who changed an existing membership and when"},
		{ID: DeleteMemberID, Name: "delete member", Op: designs.DeleteItem, Index: designs.MainTable,
			Doc: "remove an existing membership"},
		{ID: GetAgencyID, Name: "read agency by ID", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one agency by its full primary key"},
		{ID: ListAgencyMembersID, Name: "list members by agency ID", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "the agency's partition from MEMBER# on, paged, in idpid order"},
		{ID: ListAgenciesID, Name: "list all agencies", Op: designs.Query, Index: GSI1, Pages: true,
			Doc: "GSI1 partition type=Agency, paged, oldest first, optionally within a created window"},
		{ID: ListMembershipsID, Name: "list members by idpid", Op: designs.Query, Index: GSI2, Pages: true,
			Doc: "every membership of one user, paged, in agencyId order"},
	},
}
