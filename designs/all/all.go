// Package all lists every design of the harness: verify and bench read it.
// A new design adds one line here.
package all

import (
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
)

// Designs is every design: the seeds in their order, then the examples.
var Designs = []designs.Design{
	invoicing.Design,   // seed 000
	shop.Design,        // seed 001
	accountpool.Design, // seed 002
	agencies.Design,    // seed 003
	services.Design,    // seed 004
	helpdesk.Design,    // example: multi-attribute GSI keys
}
