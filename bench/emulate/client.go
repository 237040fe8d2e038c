package emulate

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/pricing"
)

// Client returns what a spec or a tool hands a design to see it throttled:
// bench's instrumented client over a copy of db with the emulator
// installed, debiting what each call consumed as the capacity rules
// charge it. The emulator still throttles nothing until Enable.
func (e *Emulator) Client(db *dynamodb.Client) *meter.Client {
	mc := meter.NewClient(dynamodb.New(db.Options(), e.Install), e.schema)
	e.Lookup(mc.Current)
	mc.Observe(func(o pricing.Observation) { e.Debit(o.Table, pricing.Account(e.item, o)) })
	return mc
}
