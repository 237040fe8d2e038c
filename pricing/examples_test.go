package pricing

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing/pricingtest"
)

// Sources of the worked examples and captures below.
const (
	guide     = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
	srcReads  = guide + "read-write-operations.html#read-operation-consumption"
	srcWrites = guide + "read-write-operations.html#write-operation-consumption"
	srcOlder  = "https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/ProvisionedThroughput.md"
	srcTx     = guide + "transaction-apis.html#transaction-capacity-handling"
	srcGSIR   = guide + "GSI.html#GSI.ThroughputConsiderations.Reads"
	srcGSIW   = guide + "GSI.html#GSI.ThroughputConsiderations.Writes"
	srcLSIR   = guide + "LSI.html#LSI.ThroughputConsiderations.Reads"
	srcFilter = guide + "Query.FilterExpression.html"
	// Captures of real DynamoDB.
	srcExtend76  = "https://github.com/ExtendDB/extenddb/issues/76"
	srcParity67  = "https://github.com/paritysuite/dynamodb-conformance/pull/67"
	srcDyno188   = "https://github.com/nubo-db/dynoxide/pull/188"
	srcDynoIndex = "https://github.com/nubo-db/dynoxide/blob/main/tests/index_consumed_capacity.rs"
	srcDynoU2    = "https://github.com/nubo-db/dynoxide/blob/main/tests/partiql_index_consumed_capacity.rs"
	srcScylla    = "https://github.com/scylladb/scylladb/blob/master/test/alternator/test_returnconsumedcapacity.py"
)

// examples is a table of a GSI projecting ALL on G/GS, one projecting
// INCLUDE P on H, and an LSI projecting INCLUDE P on L, for the index rows.
var examples = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{{Name: "All", PK: "G", SK: "GS"}, {Name: "Some", PK: "H", Projection: types.ProjectionTypeInclude, NonKey: []string{"P"}}},
	LSIs: []designs.Index{{Name: "Local", SK: "L", Projection: types.ProjectionTypeInclude, NonKey: []string{"P"}}},
}

// padded sets attribute attr so that item is exactly size bytes.
func padded(item ddbitem.Item, attr string, size int) ddbitem.Item {
	out := with(item, attr, nil)
	return with(out, attr, s(strings.Repeat("x", size-ddbitem.Size(out)-len(attr))))
}

var items = pricingtest.Items

// TestAWSExamples reproduces, to the unit, AWS's worked examples and the
// public captures of real DynamoDB's ConsumedCapacity: each row names its
// source. Want is the units per target (the table, or an index name).
func TestAWSExamples(t *testing.T) {
	small := sized("P", "A", 500)
	big := sized("P", "B", 2*1024+1)
	withG := with(sized("P", "G", 300), "G", s("g1"), "GS", s("1"))
	entry1517 := with(sized("P", "M", 1517-len("G")-2-len("GS")-1), "G", s("g1"), "GS", s("1"))
	lsiItem := padded(with(small, "L", s("l"), "P", s("p")), "D", 300)
	lsiEntry := ddbitem.Size(examples.ItemSchema().EntryOf("Local", lsiItem))

	rows := []struct {
		name, source string
		o            Observation
		want         map[string]float64
	}{
		// Reads.
		{"GetItem of 3,500 B, strongly consistent: one 4 KB unit", srcReads,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 3500)}}, table(1)},
		{"GetItem of 3,500 B, eventually consistent: half a unit", srcReads,
			Observation{Op: designs.GetItem, Reads: []ddbitem.Item{sized("P", "A", 3500)}}, table(0.5)},
		{"GetItem of 8 KB, strongly consistent: 2", srcReads,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 8192)}}, table(2)},
		{"GetItem of 8 KB, eventually consistent: 1", srcReads,
			Observation{Op: designs.GetItem, Reads: []ddbitem.Item{sized("P", "A", 8192)}}, table(1)},
		{"TransactGetItems of 8 KB: 4", srcReads,
			Observation{Op: designs.TransactGetItems, Reads: []ddbitem.Item{sized("P", "A", 8192)}}, table(4)},
		{"GetItem of 10 KB rounds to 12 KB: 3 strongly consistent", srcReads,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 10240)}}, table(3)},
		{"GetItem of 10 KB eventually consistent: 1.5", srcReads,
			Observation{Op: designs.GetItem, Reads: []ddbitem.Item{sized("P", "A", 10240)}}, table(1.5)},
		{"BatchGetItem of 1.5 KB and 6.5 KB: each rounded, 4 + 8 KB, 3 units", srcReads,
			Observation{Op: designs.BatchGetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 1536), sized("P", "B", 6656)}}, table(3)},
		{"Query of 10 items, 40.8 KB together: rounded once to 44 KB, 11 units", srcReads,
			Observation{Op: designs.Query, Consistent: true, Reads: append(items("P", 9, 4096), sized("P", "Z", 41779-9*4096))}, table(11)},
		{"the same Query eventually consistent: 5.5", srcReads,
			Observation{Op: designs.Query, Reads: append(items("P", 9, 4096), sized("P", "Z", 41779-9*4096))}, table(5.5)},
		{"Query of 1,500 items of 64 B: 96,000 B, 24 units strongly consistent", srcReads,
			Observation{Op: designs.Query, Consistent: true, Reads: items("P", 1500, 64)}, table(24)},
		{"the same Query eventually consistent: 12", srcReads,
			Observation{Op: designs.Query, Reads: items("P", 1500, 64)}, table(12)},
		{"an eventually consistent read of 80 KB: 10 units", srcOlder,
			Observation{Op: designs.Query, Reads: items("P", 20, 4096)}, table(10)},
		{"a 3 KB item read strongly consistent: 1 unit (80 a second: 80 RCU)", srcOlder,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 3072)}}, table(1)},
		{"a filtered Query is charged for the items it evaluated, not those returned", srcFilter,
			Observation{Op: designs.Query, Consistent: true, Filtered: true, Returned: 1, Scanned: 4, Evaluated: EvaluatedShadow,
				Reads: items("P", 4, 1500)}, table(2)},
		{"an empty Query costs the minimum", "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html",
			Observation{Op: designs.Query, Addressed: []ddbitem.Item{{"PK": s("P")}}}, table(0.5)},

		// Writes.
		{"PutItem of 500 B: one 1 KB unit", srcWrites,
			Observation{Op: designs.PutItem, Writes: []Write{{After: small}}}, table(1)},
		{"PutItem of a 2 KB item: 2", srcWrites,
			Observation{Op: designs.PutItem, Writes: []Write{{After: sized("P", "A", 2048)}}}, table(2)},
		{"the 2 KB item in a transaction: 4", srcWrites,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{After: sized("P", "A", 2048)}}}, table(4)},
		{"DeleteItem of 1.6 KB: 2", srcWrites,
			Observation{Op: designs.DeleteItem, Writes: []Write{{Before: sized("P", "A", 1638)}}}, table(2)},
		{"BatchWriteItem of 500 B and 3.5 KB: each rounded, 1 + 4 KB, 5 units", srcWrites,
			Observation{Op: designs.BatchWriteItem, Writes: []Write{{After: small}, {After: sized("P", "B", 3584)}}}, table(5)},
		{"a failed conditional write, 300 KB stored and 310 KB attempted: 310 units", srcWrites,
			Observation{Op: designs.PutItem, Writes: []Write{{Before: sized("P", "A", 300<<10), After: sized("P", "A", 300<<10), Failed: true,
				Attempted: sized("P", "A", 310<<10)}}}, table(310)},
		{"a 512 B write: 1 unit (100 a second: 100 WCU)", srcOlder,
			Observation{Op: designs.PutItem, Writes: []Write{{After: sized("P", "A", 512)}}}, table(1)},

		// Transactions.
		{"TransactWriteItems of three 500 B items: 6", srcTx,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{After: small}, {After: sized("Q", "A", 500)}, {After: sized("R", "A", 500)}}}, table(6)},
		{"TransactGetItems of three 500 B items: 6", srcTx,
			Observation{Op: designs.TransactGetItems, Reads: []ddbitem.Item{small, sized("Q", "A", 500), sized("R", "A", 500)}}, table(6)},

		// Indexes.
		{"a GSI Query of 8 entries of 2,000 B: 16,000 B eventually consistent, 2 units", srcGSIR,
			Observation{Op: designs.Query, Index: "All", Reads: func() []ddbitem.Item {
				var out []ddbitem.Item
				for i := range 8 {
					out = append(out, padded(with(sized("P", fmt.Sprint(i), 100), "G", s("g"), "GS", s(fmt.Sprint(i))), "D", 2000))
				}
				return out
			}()}, map[string]float64{"All": 2}},
		{"a new item with a GSI key: one index write", srcGSIW,
			Observation{Op: designs.PutItem, Writes: []Write{{After: withG}}}, map[string]float64{designs.MainTable: 1, "All": 1}},
		{"an update moving the GSI key: a delete and a put on the index", srcGSIW,
			Observation{Op: designs.UpdateItem, Writes: []Write{{Before: withG, After: with(withG, "G", s("g2"))}}}, map[string]float64{designs.MainTable: 1, "All": 2}},
		{"an update removing the GSI key: one index delete", srcGSIW,
			Observation{Op: designs.UpdateItem, Writes: []Write{{Before: withG, After: with(withG, "G", nil)}}}, map[string]float64{designs.MainTable: 1, "All": 1}},
		{"an item with no GSI key before or after: no index write", srcGSIW,
			Observation{Op: designs.UpdateItem, Writes: []Write{{Before: small, After: with(small, "X", s("1"))}}}, table(1)},
		{"an update of a projected non-key attribute: one index write", srcGSIW,
			Observation{Op: designs.UpdateItem, Writes: []Write{{Before: withG, After: with(withG, "X", s("1"))}}}, map[string]float64{designs.MainTable: 1, "All": 1}},
		{"an LSI Query fetching 4 items of 300 B: 800 B of entries (4 KB) and 4 fetches of 4 KB, 20 KB, 5 units", srcLSIR,
			Observation{Op: designs.Query, Index: "Local", Consistent: true, Reads: []ddbitem.Item{lsiItem, with(lsiItem, "SK", s("B")),
				with(lsiItem, "SK", s("C")), with(lsiItem, "SK", s("D"))}}, map[string]float64{"Local": 1, designs.MainTable: 4}},

		// Captures of real DynamoDB.
		{"TransactGetItems of a present and a missing item: 4", srcExtend76,
			Observation{Op: designs.TransactGetItems, Reads: []ddbitem.Item{small}, Addressed: []ddbitem.Item{small, ddbitem.Item{"PK": s("P"), "SK": s("none")}}}, table(4)},
		{"a conditional transactional put under 1 KB: 2", srcParity67,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{After: small}}}, table(2)},
		{"a ConditionCheck under 1 KB: 2, as a write", srcParity67,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{Before: small, After: small}}}, table(2)},
		{"a ConditionCheck of a ~3 KB item: 6", srcDyno188,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{Before: sized("P", "A", 3000), After: sized("P", "A", 3000)}}}, table(6)},
		{"a transactional put with a GSI key: the table doubled, the index not (2 + 1)", srcDyno188,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{After: withG}}}, map[string]float64{designs.MainTable: 2, "All": 1}},
		{"a transactional move of a 1,517 B GSI entry: table 4, index 2 + 2", srcDyno188,
			Observation{Op: designs.TransactWriteItems, Writes: []Write{{Before: entry1517, After: with(entry1517, "G", s("g2"))}}},
			map[string]float64{designs.MainTable: 4, "All": 4}},
		{"an identical overwrite: one unit, no index arm", srcDynoIndex,
			Observation{Op: designs.PutItem, Writes: []Write{{Before: withG, After: withG}}}, table(1)},
		{"a 3,023 B item with an 18 B INCLUDE entry: table 3, index 1", srcDynoIndex,
			Observation{Op: designs.PutItem, Writes: []Write{{After: padded(with(sized("P", "A", 100), "H", s("h")), "D", 3023)}}},
			map[string]float64{designs.MainTable: 3, "Some": 1}},
		{"a failed write of a small item over a ~3 KB stored one: 3", srcDynoU2,
			Observation{Op: designs.PutItem, Writes: []Write{{Before: sized("P", "A", 3000), After: sized("P", "A", 3000), Failed: true, Attempted: small}}}, table(3)},
		{"GetItem of exactly 4 KB: 1", srcScylla,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 4096)}}, table(1)},
		{"GetItem of 4 KB and a byte: 2", srcScylla,
			Observation{Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized("P", "A", 4097)}}, table(2)},
		{"GetItem of a missing item, strongly consistent: 1", srcScylla,
			Observation{Op: designs.GetItem, Consistent: true, Addressed: []ddbitem.Item{small}}, table(1)},
		{"GetItem of a missing item, eventually consistent: 0.5", srcScylla,
			Observation{Op: designs.GetItem, Addressed: []ddbitem.Item{small}}, table(0.5)},
		{"PutItem of exactly 1 KB: 1", srcScylla,
			Observation{Op: designs.PutItem, Writes: []Write{{After: sized("P", "A", 1024)}}}, table(1)},
		{"PutItem of 1 KB and a byte: 2", srcScylla,
			Observation{Op: designs.PutItem, Writes: []Write{{After: sized("P", "A", 1025)}}}, table(2)},
		{"a small put over an item of 2 KB and a byte: 3", srcScylla,
			Observation{Op: designs.PutItem, Writes: []Write{{Before: big, After: with(small, "SK", s("B"))}}}, table(3)},
		{"DeleteItem of a missing item: 1", srcScylla,
			Observation{Op: designs.DeleteItem, Writes: []Write{{Key: small}}}, table(1)},
		{"DeleteItem of 2 KB and a byte: 3", srcScylla,
			Observation{Op: designs.DeleteItem, Writes: []Write{{Before: big}}}, table(3)},
		{"BatchWriteItem of three small items and one over 1 KB: 5", srcScylla,
			Observation{Op: designs.BatchWriteItem, Writes: []Write{{After: small}, {After: sized("Q", "A", 10)}, {After: sized("R", "A", 10)},
				{After: sized("S", "A", 1500)}}}, table(5)},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := map[string]float64{}
			for _, c := range Account(examples.ItemSchema(), r.o) {
				got[c.Target] += c.RCU + c.WCU
			}
			if !sameUnits(got, r.want) {
				t.Errorf("got %v, want %v\n\tsource: %s", got, r.want, r.source)
			}
		})
	}
	if lsiEntry >= ddbitem.Size(lsiItem) {
		t.Fatalf("the LSI example's entry (%d B) must be smaller than its item", lsiEntry)
	}
}

func table(units float64) map[string]float64 { return map[string]float64{designs.MainTable: units} }

// near compares unit figures, which are sums of fractions.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func sameUnits(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if !near(a[k], v) {
			return false
		}
	}
	return true
}
