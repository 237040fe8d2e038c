package accountpool

import "github.com/ddbharness/ddbharness/designs"

// The accountpool rules that refuse a call; each is a designs.ErrRefused.
var (
	// ErrAccountNotAvailable refuses a lease of an account that is not
	// available (CreateLease).
	ErrAccountNotAvailable = designs.Refusal("account not available")
	// ErrLeaseNotActive refuses to end a lease that is unknown or already
	// ended (DeleteLease).
	ErrLeaseNotActive = designs.Refusal("lease not active")
	// ErrUserHasLease refuses a lease to a user who already holds one
	// (CreateLease).
	ErrUserHasLease = designs.Refusal("user already holds a lease")
	// ErrAccountLeased refuses a change an active lease forbids: removing a
	// leased account, or making it available while the lease still runs
	// (RemoveAccount, MarkAccountAvailable).
	ErrAccountLeased = designs.Refusal("account is leased")
)
