// Package capacitytest holds the calls the specs of the capacity model
// and of its findings analyze: a hot partition's puts, an on-sale
// moment's transactions, a mix with every kind of row a ledger keeps, and
// the ledgers of them.
package capacitytest

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/pricing/pricingtest"
)

// Put is a write of one 900-byte item: one write unit on the table, and
// one on each GSI whose key it carries.
func Put(key string, attrs ...any) pricing.Observation {
	return pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: pricingtest.With(pricingtest.Sized(key, "A", 900), attrs...)}}}
}

// SpreadPuts is n puts on partition key key, each of an item of its own.
func SpreadPuts(key string, n int) []pricing.Observation {
	out := make([]pricing.Observation, n)
	for i := range out {
		out[i] = pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: pricingtest.Sized(key, fmt.Sprint(i), 900)}}}
	}
	return out
}

// OnSale is an on-sale moment of a ticketing design: each hold (AP-01) is
// one transaction that takes three seats and counts them off the event's
// item, so every hold writes that one item; the reads (AP-02) get it.
// Every item is under 1 KB: two units in a transaction.
func OnSale() []pricing.Observation {
	event := pricingtest.Sized("EVENT#1", "EVENT", 300)
	var calls []pricing.Observation
	for i := range 100 {
		hold := pricing.Observation{Pattern: "AP-01", Op: designs.TransactWriteItems, Writes: []pricing.Write{{Before: event, After: event}}}
		for j := range 3 {
			seat := pricingtest.Sized("EVENT#1", "SEAT#"+string(rune('a'+(3*i+j)%26))+string(rune('a'+(3*i+j)/26)), 300)
			hold.Writes = append(hold.Writes, pricing.Write{Before: seat, After: seat})
		}
		calls = append(calls, hold, pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Reads: []ddbitem.Item{event}})
	}
	return calls
}

// LightKeysPlaced is a hot key's partition shared with light keys, on a
// known placement of two partitions (placed, a Model.Placed): HOT takes
// 40 puts and eight light keys 10 each, four of them on HOT's partition.
// Over 10 s that partition takes 80 of the 120 requests' write units.
func LightKeysPlaced() (calls []pricing.Observation, placed func(space, key string) (int, int)) {
	on := map[string]int{"HOT": 0}
	calls = Repeat(40, Put("HOT"))
	for i := range 8 {
		key := fmt.Sprintf("L%d", i)
		on[key] = i / 4
		calls = append(calls, Repeat(10, Put(key))...)
	}
	return calls, func(space, key string) (int, int) { return on[key], 2 }
}

// Repeat is n copies of o.
func Repeat(n int, o pricing.Observation) []pricing.Observation {
	out := make([]pricing.Observation, n)
	for i := range out {
		out[i] = o
	}
	return out
}

// ShardMix is a run's calls over 10 seconds with every kind of row a
// ledger keeps: a hot key written on the table and its LSI, cold reads, GSI
// keys moved, an item that keeps growing, transactions DynamoDB Local
// reports otherwise and filtered queries it agrees on. Every charge is a
// multiple of ½ unit, so sums come out the same in any order.
func ShardMix() []pricing.Observation {
	var out []pricing.Observation
	members := []string{"m000"}
	for i := range 280 {
		var o pricing.Observation
		switch i % 7 {
		case 0, 1:
			o = pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: pricingtest.With(pricingtest.Sized("HOT", fmt.Sprint(i%3), 1000), "L", pricingtest.S("sku"))}}}
		case 2:
			o = pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{pricingtest.Sized(fmt.Sprintf("COLD#%d", i%5), "A", 4000)}}
		case 3:
			before := pricingtest.With(pricingtest.Sized(fmt.Sprintf("ITEM#%d", i%4), "A", 800), "G", pricingtest.S("GROUP#a"), "GS", pricingtest.S("1"))
			o = pricing.Observation{Pattern: "AP-04", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: pricingtest.With(before, "G", pricingtest.S(fmt.Sprintf("GROUP#%d", i%3)))}}}
		case 4:
			before := ddbitem.Item{"PK": pricingtest.S("POOL"), "SK": pricingtest.S("A"), "Members": &types.AttributeValueMemberSS{Value: members}}
			members = append(members[:len(members):len(members)], fmt.Sprintf("m%03d", i))
			after := ddbitem.Item{"PK": pricingtest.S("POOL"), "SK": pricingtest.S("A"), "Members": &types.AttributeValueMemberSS{Value: members}}
			o = pricing.Observation{Pattern: "AP-07", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: after}}}
		case 5:
			o = pricing.Observation{Pattern: "AP-03", Op: designs.TransactWriteItems,
				Writes: []pricing.Write{{After: pricingtest.Sized(fmt.Sprintf("INV#%d", i), "A", 500)}, {After: pricingtest.Sized(fmt.Sprintf("INV#%d", i+1), "A", 500)}},
				Local:  []types.ConsumedCapacity{{CapacityUnits: aws.Float64(2), Table: &types.Capacity{CapacityUnits: aws.Float64(2)}}}}
		case 6:
			o = pricing.Observation{Pattern: "AP-06", Op: designs.Query, Filtered: true, Returned: 1, Scanned: 3, Evaluated: pricing.EvaluatedShadow,
				Reads: pricingtest.Items("HOT", 3, 1000), Addressed: []ddbitem.Item{{"PK": pricingtest.S("HOT")}},
				Local: []types.ConsumedCapacity{{CapacityUnits: aws.Float64(0.5)}}}
		}
		o.At = pricingtest.T0.Add(time.Duration(i%10) * time.Second)
		out = append(out, o)
	}
	return out
}

// LedgerOf is the ledger of calls, each at its own time.
func LedgerOf(calls []pricing.Observation) *ledger.Ledger {
	l := ledger.NewLedger(pricingtest.Schema)
	for _, o := range calls {
		l.Observe(o)
	}
	return l
}

// Observed is the ledger of calls on schema spread evenly over the
// seconds of d, from pricingtest.T0: the i-th call in second i mod d.
func Observed(schema designs.Schema, d time.Duration, calls ...pricing.Observation) *ledger.Ledger {
	l := ledger.NewLedger(schema)
	secs := int(d / time.Second)
	for i, o := range calls {
		o.At = pricingtest.T0.Add(time.Duration(i%secs) * time.Second)
		l.Observe(o)
	}
	return l
}
