package shop

import "github.com/ddbharness/ddbharness/designs"

// The shop rules that refuse a call; each is a designs.ErrRefused.
var (
	// ErrEmailTaken refuses a user whose email, in any case, another user
	// holds (CreateUser).
	ErrEmailTaken = designs.Refusal("email already taken")
	// ErrOutOfStock refuses an order that asks for more of a product than its
	// stock holds (PlaceOrder).
	ErrOutOfStock = designs.Refusal("out of stock")
)
