// Package helpdesk is the repository's example of a GSI keyed by several
// attributes: a support desk shared by many tenants (companies), each
// serving customers in several regions. A ticket is its own partition; the
// regional queue index (ByTenantRegion) groups tickets by tenant and region
// and sorts them by status, then opening time; the agent index (ByAgent)
// holds only assigned tickets, by tenant and agent, sorted by priority,
// then opening time. Both index keys are the tickets' own typed attributes,
// where an older design would have written composite strings such as
// "TENANT#t#REGION#eu" into extra attributes (README, "Why multi-attribute
// keys").
package helpdesk

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Index names.
const (
	ByTenantRegion = "ByTenantRegion"
	ByAgent        = "ByAgent"
)

// Attribute names of the index keys: the ticket's own attributes, which
// the domain struct carries under the same names.
const (
	attrTenant   = "Tenant"
	attrRegion   = "Region"
	attrStatus   = "Status"
	attrOpenedAt = "OpenedAt"
	attrAgent    = "Agent"
	attrPriority = "Priority"
)

// Schema is the single table and its two multi-attribute GSIs. Priority
// and OpenedAt are numbers, so they sort as numbers in the index (priority
// 2 before 10, whatever their digits); every other key attribute is a
// string. Both indexes project every attribute: a queue screen shows whole
// tickets without a second read.
var Schema = designs.Schema{
	PK: "PK", SK: "SK",
	Types: map[string]types.ScalarAttributeType{
		attrOpenedAt: types.ScalarAttributeTypeN,
		attrPriority: types.ScalarAttributeTypeN,
	},
	GSIs: []designs.Index{
		{Name: ByTenantRegion, PKs: []string{attrTenant, attrRegion}, SKs: []string{attrStatus, attrOpenedAt}},
		{Name: ByAgent, PKs: []string{attrTenant, attrAgent}, SKs: []string{attrPriority, attrOpenedAt}},
	},
}

// Table is a handle on one helpdesk table: a small value, never a global, so
// that specs, seeds and bench each bring their own client.
type Table struct {
	DB   designs.DB
	Name string
}

// Key builders of the main table: a ticket is its own partition, so reads
// and writes of different tickets never share a partition key. The index
// keys need no builder: they are the ticket's attributes as they are.
func TicketPK(id string) string { return "TICKET#" + id }
func TicketSK() string          { return "TICKET" }

// Item types, stored in the Type attribute, so a read of a mixed partition
// can tell its items apart.
const typeTicket = "Ticket"

// Status is where a ticket is in its life.
type Status string

// The statuses, in the order a ticket moves through them. A new ticket is
// open; assigning it makes it pending (an agent has it); closing it ends it.
const (
	Open    Status = "open"
	Pending Status = "pending"
	Closed  Status = "closed"
)

// Priorities run from Urgent (1) to Low (4): the agent queue sorts by the
// number, most urgent first.
const (
	Urgent = 1
	Low    = 4
)

// Ticket is one customer request to one tenant's desk, in one region. ID
// is a KSUID; OpenedAt is Unix milliseconds (a number, so the queue sorts by
// it as a number). Agent is set while an agent has the ticket; a ticket
// without one is not in ByAgent.
type Ticket struct {
	ID       string `dynamodbav:"TicketID"`
	Tenant   string `dynamodbav:"Tenant"`
	Region   string `dynamodbav:"Region"`
	Status   Status `dynamodbav:"Status"`
	OpenedAt int64  `dynamodbav:"OpenedAt"`
	Priority int    `dynamodbav:"Priority"`
	Subject  string `dynamodbav:"Subject"`
	Agent    string `dynamodbav:"Agent,omitempty"`
}

// Key is the ticket's primary key.
func (v Ticket) Key() map[string]types.AttributeValue { return Schema.Key(TicketPK(v.ID), TicketSK()) }

// Storage items: the domain struct plus the table's keys and type. The
// index keys are the domain struct's own fields.
type (
	keys struct {
		PK   string `dynamodbav:"PK"`
		SK   string `dynamodbav:"SK"`
		Type string `dynamodbav:"Type"`
	}
	ticketItem struct {
		keys
		Ticket
	}
)

func newTicketItem(v Ticket) ticketItem {
	return ticketItem{keys{TicketPK(v.ID), TicketSK(), typeTicket}, v}
}
