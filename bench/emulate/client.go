package emulate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/pricing"
)

// Attach wires e to mc, bench's instrumented client over an SDK client e is
// installed in (Install): e reads the items a request names from mc's
// shadow, and each call mc observes from now on is priced by price (a
// run's ledger, or pricing's rules alone) and debited from the partitions
// it touched. A nil e (limits off) only prices. It is the one wiring of
// the two, for a run (bench) and for Client alike. price has the call's
// context: bench holds the charges of a pattern call there.
func Attach(e *Emulator, mc *meter.Client, price func(context.Context, pricing.Observation) []pricing.Charge) {
	if e == nil {
		mc.Observe(func(ctx context.Context, o pricing.Observation) { price(ctx, o) })
		return
	}
	e.lookupIn(mc.Current)
	mc.Observe(func(ctx context.Context, o pricing.Observation) { e.Debit(o.Table, price(ctx, o)) })
}

// Client returns what a spec or a tool hands a design to see it throttled:
// bench's instrumented client over a copy of db with the emulator
// installed, attached to it with pricing's rules for the price of a call.
// The emulator still throttles nothing until Enable.
func (e *Emulator) Client(db *dynamodb.Client) *meter.Client {
	mc := meter.NewClient(dynamodb.New(db.Options(), e.Install), e.schema)
	Attach(e, mc, func(_ context.Context, o pricing.Observation) []pricing.Charge { return pricing.Account(e.item, o) })
	return mc
}
