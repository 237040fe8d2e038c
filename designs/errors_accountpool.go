package designs

import "errors"

// ErrAccountLeased refuses a change an active lease forbids: removing a
// leased account, or making it available while the lease still runs.
var ErrAccountLeased = errors.New("account is leased")
