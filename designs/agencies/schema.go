// Package agencies restates design seed 003: a multi-tenant table of agencies
// and their members. An agency and its members share the agency's partition;
// GSI1 lists items of one type in creation order, and the sparse GSI2 finds
// every membership of one identity-provider user.
package agencies

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Index names.
const (
	GSI1 = "GSI1" // type, created: agencies (or members) in creation order
	GSI2 = "GSI2" // idpid, agencyId: the memberships of one user; sparse
)

// Attribute names the indexes key on, as the doc spells them.
const (
	AttrType     = "type"
	AttrCreated  = "created"
	AttrIdpID    = "idpid"
	AttrAgencyID = "agencyId"
)

// Schema is the single table: PK/SK, GSI1 on the item type and its creation
// time, GSI2 on the member's idpid (only member items carry one).
var Schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{
		{Name: GSI1, PK: AttrType, SK: AttrCreated},
		{Name: GSI2, PK: AttrIdpID, SK: AttrAgencyID},
	}}

// MaxAgencyMembers is the most members an agency may have for DeleteAgency
// to remove it: the agency and its members go in one transaction.
const MaxAgencyMembers = designs.MaxTransactActions - 1

// MaxPageSize bounds the page size of the listings. Agency and member items
// stay under 0.5 KB, so a full page is far below Query's 1 MB page.
const MaxPageSize = 1000

// Item types, stored in the type attribute: GSI1's partition key values.
const (
	TypeAgency = "Agency"
	TypeMember = "Member"
)

// Table is a handle on one agencies table.
type Table struct {
	DB   designs.DB
	Name string
}

// Key builders. "AGENCY#" sorts before "MEMBER#", so the agency item leads
// its partition.
func AgencyPK(id string) string    { return "AGENCY#" + id }
func AgencySK(id string) string    { return "AGENCY#" + id }
func MemberSK(idpID string) string { return MemberPrefix + idpID }

// MemberPrefix starts the sort key of every member item.
const MemberPrefix = "MEMBER#"

// StampLayout is how created and modified are stored: UTC, nanoseconds, a
// literal Z. Every stamp of years 1 to 9999 has the same width, so GSI1's
// string sort key orders by time (RFC 3339 with trimmed fractions would not:
// ".5Z" sorts before "Z").
const StampLayout = "2006-01-02T15:04:05.000000000Z"

// Stamp is the stored form of t, GSI1's sort key.
func Stamp(t time.Time) string { return t.UTC().Format(StampLayout) }

// Agency is a tenant.
type Agency struct {
	ID     string `dynamodbav:"agencyId"`
	Name   string `dynamodbav:"name"`
	Status string `dynamodbav:"status"`
	Audit
}

// Member is one identity-provider user's membership of one agency.
type Member struct {
	AgencyID string `dynamodbav:"agencyId"`
	IdpID    string `dynamodbav:"idpid"`
	Audit
}

// Audit is who made an item and when, and who changed it last and when;
// agencies and members carry it alike. Created and CreatedBy never change.
type Audit struct {
	Created    time.Time `dynamodbav:"created"`
	CreatedBy  string    `dynamodbav:"createdBy"`
	Modified   time.Time `dynamodbav:"modified"`
	ModifiedBy string    `dynamodbav:"modifiedBy"`
}

// Made is the Audit of an item by made at: its making is its last change.
func Made(by string, at time.Time) Audit {
	return Audit{Created: at, CreatedBy: by, Modified: at, ModifiedBy: by}
}

// made is a as a create writes it: whatever a says of the last change,
// the making is.
func (a Audit) made() Audit { return Made(a.CreatedBy, a.Created) }

// valid reports whether a names a maker and a time a stamp can hold.
func (a Audit) valid() bool { return a.CreatedBy != "" && validTime(a.Created) }

// AgencyUpdate is what UpdateAgency changes; an empty field stays as it is.
type AgencyUpdate struct {
	Name   string
	Status string
}

// Edit is who changes an item and when: it becomes modifiedBy and modified.
type Edit struct {
	By string
	At time.Time
}

// valid reports whether e names who and a time a stamp can hold.
func (e Edit) valid() bool { return e.By != "" && validTime(e.At) }

// stamp stores a time in StampLayout. The storage structs declare created
// and modified as stamps one level above the embedded Audit, whose
// time.Time fields they shadow (the SDK would write RFC 3339 otherwise).
// Reads decode into the domain structs, which parse any RFC 3339 form.
type stamp time.Time

func (s stamp) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: Stamp(time.Time(s))}, nil
}

// Storage items: the domain struct plus keys and type.
type (
	keys struct {
		PK   string `dynamodbav:"PK"`
		SK   string `dynamodbav:"SK"`
		Type string `dynamodbav:"type"`
	}
	// stamps shadow an Audit's times with their stored form.
	stamps struct {
		Created  stamp `dynamodbav:"created"`
		Modified stamp `dynamodbav:"modified"`
	}
	agencyItem struct {
		keys
		stamps
		Agency
	}
	memberItem struct {
		keys
		stamps
		Member
	}
)

func stampsOf(a Audit) stamps { return stamps{stamp(a.Created), stamp(a.Modified)} }

func newAgencyItem(a Agency) agencyItem {
	return agencyItem{keys{AgencyPK(a.ID), AgencySK(a.ID), TypeAgency}, stampsOf(a.Audit), a}
}

func newMemberItem(m Member) memberItem {
	return memberItem{keys{AgencyPK(m.AgencyID), MemberSK(m.IdpID), TypeMember}, stampsOf(m.Audit), m}
}

// validTime reports whether t has a fixed-width stamp.
func validTime(t time.Time) bool {
	y := t.UTC().Year()
	return !t.IsZero() && y >= 1 && y <= 9999
}

// edited sets the audit attributes of an update.
func edited(e Edit) expression.UpdateBuilder {
	return expression.Set(expression.Name("modified"), expression.Value(Stamp(e.At))).
		Set(expression.Name("modifiedBy"), expression.Value(e.By))
}

// decodeAll unmarshals items of one kind.
func decodeAll[T any](items []map[string]types.AttributeValue) ([]T, error) {
	out := make([]T, 0, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, err
	}
	return out, nil
}
