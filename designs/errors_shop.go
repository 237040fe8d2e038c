package designs

import "errors"

// ErrOutOfStock reports that an order asked for more of a product than its
// stock holds.
var ErrOutOfStock = errors.New("out of stock")
