// Package accountpool restates design seed 002: a pool of cloud accounts
// leased to users one at a time. Every item sits alone in its partition (the
// table has no sort key); the pool's listings are single "status" items whose
// data attribute is a string set of IDs, kept in step with the account and
// lease items by one transaction per change.
package accountpool

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Attribute names. Every item keeps its payload in data, as the doc draws it:
// a string (account state), a map (lease, user) or a string set (status).
const (
	attrPK   = "pk"
	attrData = "data"
	attrType = "type"
)

// Schema is the single table: a partition key and nothing else.
var Schema = designs.Schema{PK: attrPK}

// AccountIDLen is the width of an account ID: twelve digits, like an AWS
// account number.
const AccountIDLen = 12

// Table is a handle on one accountpool table.
type Table struct {
	DB   designs.DB
	Name string
}

// AccountState is where an account stands in the pool.
type AccountState string

// The account states. An account is added initial, made available by an
// operator, leased by a user and made available again when the lease ends.
const (
	StateInitial   AccountState = "initial"
	StateAvailable AccountState = "available"
	StateLeased    AccountState = "leased"
)

// AccountStates lists every state, each with its own status item.
var AccountStates = []AccountState{StateInitial, StateAvailable, StateLeased}

// LeaseState is the state a lease item records. Only active leases are
// stored: ending a lease deletes its item.
type LeaseState string

// LeaseActive is the state of every stored lease.
const LeaseActive LeaseState = "active"

// Key prefixes, as the doc spells them.
const (
	accountPrefix       = "account_id#"
	leasePrefix         = "lease_id#"
	userPrefix          = "user_id#"
	accountStatusPrefix = "account_status#"
	leaseStatusPrefix   = "lease_status#"
)

// Key builders. Account IDs are fixed-width (AccountIDLen digits); the
// status keys are constants, one partition each.
func AccountKey(id string) string            { return accountPrefix + id }
func LeaseKey(id string) string              { return leasePrefix + id }
func UserKey(email string) string            { return userPrefix + email }
func AccountStatusKey(s AccountState) string { return accountStatusPrefix + string(s) }
func AllAccountsKey() string                 { return accountStatusPrefix + "all" }
func ActiveLeasesKey() string                { return leaseStatusPrefix + string(LeaseActive) }

// key is the primary key of the item at pk.
func key(pk string) map[string]types.AttributeValue { return Schema.Key(pk, "") }

// Item types, stored in the type attribute.
const (
	typeAccount = "account"
	typeLease   = "lease"
	typeUser    = "user"
	typeStatus  = "status"
)

// Account is one account of the pool. Its ID lives only in the key.
type Account struct {
	ID    string       `dynamodbav:"-"`
	State AccountState `dynamodbav:"data"`
}

// Lease hands one account to one user. Its ID lives only in the key; the
// other fields are the data map.
type Lease struct {
	ID        string     `dynamodbav:"-"`
	State     LeaseState `dynamodbav:"state"`
	AccountID string     `dynamodbav:"account"`
	UserID    string     `dynamodbav:"user"`
}

// User is a person who may lease an account; the email is the ID and lives
// only in the key. LeaseID and AccountID are set while the user holds a
// lease and empty otherwise.
type User struct {
	Email     string `dynamodbav:"-"`
	LeaseID   string `dynamodbav:"lease,omitempty"`
	AccountID string `dynamodbav:"account,omitempty"`
}

// Storage items: the domain struct plus key and type. Lease and user nest
// under data, so a lease's state is the document path data.state.
type (
	keys struct {
		PK   string `dynamodbav:"pk"`
		Type string `dynamodbav:"type"`
	}
	accountItem struct {
		keys
		Account
	}
	leaseItem struct {
		keys
		Lease `dynamodbav:"data"`
	}
	userItem struct {
		keys
		User `dynamodbav:"data"`
	}
	statusItem struct {
		keys
		IDs []string `dynamodbav:"data,stringset,omitempty"`
	}
)

func newAccountItem(a Account) accountItem {
	return accountItem{keys{AccountKey(a.ID), typeAccount}, a}
}
func newLeaseItem(l Lease) leaseItem { return leaseItem{keys{LeaseKey(l.ID), typeLease}, l} }
func newUserItem(u User) userItem    { return userItem{keys{UserKey(u.Email), typeUser}, u} }

// validAccountID reports whether id is AccountIDLen ASCII digits.
func validAccountID(id string) bool {
	if len(id) != AccountIDLen {
		return false
	}
	for _, c := range []byte(id) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// validEmail is a light check: something on each side of one '@'.
func validEmail(email string) bool {
	local, domain, ok := strings.Cut(email, "@")
	return ok && local != "" && domain != "" && !strings.Contains(domain, "@")
}
