package capacity

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// shardMix is a run's calls over 10 seconds with every kind of row a
// ledger keeps: a hot key written on the table and its LSI, cold reads, GSI
// keys moved, an item that keeps growing, transactions DynamoDB Local
// reports otherwise and filtered queries it agrees on. Every charge is a
// multiple of ½ unit, so sums come out the same in any order.
func shardMix() []pricing.Observation {
	var out []pricing.Observation
	members := []string{"m000"}
	for i := range 280 {
		var o pricing.Observation
		switch i % 7 {
		case 0, 1:
			o = pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: with(sized("HOT", fmt.Sprint(i%3), 1000), "L", s("sku"))}}}
		case 2:
			o = pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: true, Reads: []ddbitem.Item{sized(fmt.Sprintf("COLD#%d", i%5), "A", 4000)}}
		case 3:
			before := with(sized(fmt.Sprintf("ITEM#%d", i%4), "A", 800), "G", s("GROUP#a"), "GS", s("1"))
			o = pricing.Observation{Pattern: "AP-04", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: with(before, "G", s(fmt.Sprintf("GROUP#%d", i%3)))}}}
		case 4:
			before := ddbitem.Item{"PK": s("POOL"), "SK": s("A"), "Members": &types.AttributeValueMemberSS{Value: members}}
			members = append(members[:len(members):len(members)], fmt.Sprintf("m%03d", i))
			after := ddbitem.Item{"PK": s("POOL"), "SK": s("A"), "Members": &types.AttributeValueMemberSS{Value: members}}
			o = pricing.Observation{Pattern: "AP-07", Op: designs.UpdateItem, Writes: []pricing.Write{{Before: before, After: after}}}
		case 5:
			o = pricing.Observation{Pattern: "AP-03", Op: designs.TransactWriteItems,
				Writes: []pricing.Write{{After: sized(fmt.Sprintf("INV#%d", i), "A", 500)}, {After: sized(fmt.Sprintf("INV#%d", i+1), "A", 500)}},
				Local:  []types.ConsumedCapacity{{CapacityUnits: aws.Float64(2), Table: &types.Capacity{CapacityUnits: aws.Float64(2)}}}}
		case 6:
			o = pricing.Observation{Pattern: "AP-06", Op: designs.Query, Filtered: true, Returned: 1, Scanned: 3, Evaluated: pricing.EvaluatedShadow,
				Reads: items("HOT", 3, 1000), Addressed: []ddbitem.Item{{"PK": s("HOT")}},
				Local: []types.ConsumedCapacity{{CapacityUnits: aws.Float64(0.5)}}}
		}
		o.At = t0.Add(time.Duration(i%10) * time.Second)
		out = append(out, o)
	}
	return out
}

// shardModel analyzes the mix with a target rate, so that every part of a
// Report is filled.
var shardModel = Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}

func ledgerOf(calls []pricing.Observation) *Ledger {
	l := NewLedger(schema)
	for _, o := range calls {
		l.Observe(o)
	}
	return l
}

func TestMergeOfOneLedgerIsTheLedger(t *testing.T) {
	l := ledgerOf(shardMix())
	want := shardModel.Analyze(l)
	if len(want.Growth) == 0 || len(want.Disagreements) == 0 || want.Forecast == nil || len(want.Hot) < 3 {
		t.Fatalf("Analyze(mix) = %+v, want growth, disagreements, a forecast and hot keys to compare", want)
	}
	merged, err := MergeLedgers(schema, l.Export())
	if err != nil {
		t.Fatalf("MergeLedgers(schema, one file) error %v", err)
	}
	if got := shardModel.Analyze(merged); !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze(MergeLedgers(l.Export())) =\n%+v\nwant Analyze(l) =\n%+v", got, want)
	}
	if got, want := merged.Export(), l.Export(); !reflect.DeepEqual(got, want) {
		t.Errorf("MergeLedgers(l.Export()).Export() =\n%+v\nwant l.Export() =\n%+v", got, want)
	}
}

func TestMergeOfEmptyLedgers(t *testing.T) {
	want := Model{Schema: schema}.Analyze(NewLedger(schema))
	for _, files := range [][]LedgerFile{nil, {NewLedger(schema).Export()}, {NewLedger(schema).Export(), NewLedger(schema).Export()}} {
		merged, err := MergeLedgers(schema, files...)
		if err != nil {
			t.Fatalf("MergeLedgers(%d empty files) error %v", len(files), err)
		}
		if got := (Model{Schema: schema}).Analyze(merged); !reflect.DeepEqual(got, want) {
			t.Errorf("Analyze(MergeLedgers(%d empty files)) = %+v, want an empty ledger's %+v", len(files), got, want)
		}
	}
}

func TestMergeOfShardsIsOneMachine(t *testing.T) {
	// Two shards that each made every other call of the run, on one
	// clock, sum to the machine that made them all.
	calls := shardMix()
	var halves [2][]pricing.Observation
	for i, o := range calls {
		halves[i%2] = append(halves[i%2], o)
	}
	merged, err := MergeLedgers(schema, ledgerOf(halves[0]).Export(), ledgerOf(halves[1]).Export())
	if err != nil {
		t.Fatalf("MergeLedgers(two halves) error %v", err)
	}
	got, want := shardModel.Analyze(merged), shardModel.Analyze(ledgerOf(calls))
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"Requests", got.Requests, want.Requests},
		{"Seconds", got.Seconds, want.Seconds},
		{"MeasuredRate", got.MeasuredRate, want.MeasuredRate},
		{"Start", got.Start, want.Start},
		{"Targets", got.Targets, want.Targets},
		{"Hot", got.Hot, want.Hot},
		{"Ceiling", got.Ceiling, want.Ceiling},
		{"Warm", got.Warm, want.Warm},
		{"Forecast", got.Forecast, want.Forecast},
		{"Cost", got.Cost, want.Cost},
		{"Patterns", got.Patterns, want.Patterns},
		{"Disagreements", got.Disagreements, want.Disagreements},
	} {
		t.Run(f.name, func(t *testing.T) {
			if !reflect.DeepEqual(f.got, f.want) {
				t.Errorf("Analyze(MergeLedgers(two halves)).%s =\n%+v\nwant, from one ledger of every call,\n%+v", f.name, f.got, f.want)
			}
		})
	}
	if got.Requests != int64(len(calls)) {
		t.Errorf("Analyze(MergeLedgers(two halves)).Requests = %d, want %d calls observed", got.Requests, len(calls))
	}
}

func TestLedgerFileJSONRoundTrip(t *testing.T) {
	l := ledgerOf(shardMix())
	data, err := json.Marshal(l.Export())
	if err != nil {
		t.Fatalf("json.Marshal(Export()) error %v", err)
	}
	var f LedgerFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("json.Unmarshal(Export() as JSON) error %v", err)
	}
	merged, err := MergeLedgers(schema, f)
	if err != nil {
		t.Fatalf("MergeLedgers(file read back) error %v", err)
	}
	if got, want := shardModel.Analyze(merged), shardModel.Analyze(l); !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze(ledger read back from JSON) =\n%+v\nwant\n%+v", got, want)
	}
	again, err := json.Marshal(merged.Export())
	if err != nil || string(again) != string(data) {
		t.Errorf("the ledger read back writes %d bytes (error %v), want the same %d bytes", len(again), err, len(data))
	}
	if !strings.Contains(string(data), `"format":"`+LedgerFormat+`"`) {
		t.Errorf("Export() as JSON starts %.60s, want format %q", data, LedgerFormat)
	}
}

func TestMergeLedgersRefusesAnotherFormat(t *testing.T) {
	good := NewLedger(schema).Export()
	for _, format := range []string{"", "ddbharness-ledger/2"} {
		_, err := MergeLedgers(schema, good, LedgerFile{Format: format})
		if err == nil || !errors.Is(err, designs.ErrInvalidInput) || !strings.Contains(err.Error(), fmt.Sprintf("%q", format)) ||
			!strings.Contains(err.Error(), LedgerFormat) || !strings.Contains(err.Error(), "ledger 2 of 2") {
			t.Errorf("MergeLedgers(good, format %q) error %v, want ErrInvalidInput naming ledger 2 of 2, %q and %q", format, err, format, LedgerFormat)
		}
	}
}

func TestMergeLedgersRules(t *testing.T) {
	// Three shards' files, built by hand: the third charged nothing, and
	// its example of a disagreement comes after the second's.
	tx := Disagreement{PatternOp: PatternOp{"AP-03", designs.TransactWriteItems}, Target: designs.MainTable}
	withCounts := func(d Disagreement, calls, differing int64, units, local, exUnits, exLocal float64) Disagreement {
		d.Calls, d.Differing, d.Units, d.LocalUnits, d.ExampleUnits, d.ExampleLocal = calls, differing, units, local, exUnits, exLocal
		return d
	}
	a := LedgerFile{Format: LedgerFormat, First: 100, Last: 105, Observed: 3,
		Targets: []LedgerTarget{{Target: designs.MainTable, RCU: 1, WCU: 4, ReadCalls: 1, WriteCalls: 2}},
		Keys: []LedgerKey{{Target: designs.MainTable, Key: "HOT", RCU: 1, WCU: 4, Calls: 3, ReadCalls: 1, WriteCalls: 2,
			ByPattern: []PatternWeight{{"AP-01", 12}, {"AP-02", 1}}, Seconds: []LedgerSecond{{100, 1, 2}, {105, 0, 2}}}},
		Patterns:      []PatternUsage{{PatternOp: PatternOp{"AP-01", designs.PutItem}, Calls: 2, WCU: 4, Local: 4, LocalCalls: 2}},
		Disagreements: []Disagreement{withCounts(tx, 2, 0, 8, 8, 0, 0)},
		Items:         []LedgerItem{{ID: "x", PK: "P", SK: "A", First: 100, Last: 300, Collection: 300, Writes: 2, Grows: 2}},
		Collections:   []LedgerCollection{{PK: "P", Known: 500, Added: 200, Grows: 2}},
		IndexKeys:     []LedgerCollection{{Index: "GSI1", PK: "G", Known: 40, Added: 40, Grows: 1}},
	}
	b := LedgerFile{Format: LedgerFormat, First: 98, Last: 104, Observed: 4,
		Targets: []LedgerTarget{{Target: designs.MainTable, RCU: 2, ReadCalls: 2}, {Target: "GSI1", WCU: 1, WriteCalls: 1}},
		Keys: []LedgerKey{{Target: designs.MainTable, Key: "HOT", RCU: 2, Calls: 2, ReadCalls: 2,
			ByPattern: []PatternWeight{{"AP-02", 2}}, Seconds: []LedgerSecond{{98, 1, 0}, {100, 1, 0}}},
			{Target: "GSI1", Key: "G", WCU: 1, Calls: 1, WriteCalls: 1, ByPattern: []PatternWeight{{"AP-04", 3}}, Seconds: []LedgerSecond{{104, 0, 1}}}},
		Patterns: []PatternUsage{{PatternOp: PatternOp{"AP-01", designs.PutItem}, Calls: 1, WCU: 2, Local: 1, LocalCalls: 1},
			{PatternOp: PatternOp{"AP-06", designs.Query}, Calls: 2, RCU: 1, Filtered: 2, Returned: 2, Evaluated: 6}},
		Disagreements: []Disagreement{withCounts(tx, 3, 2, 12, 6, 4, 2)},
		Items:         []LedgerItem{{ID: "x", PK: "P", SK: "A", First: 150, Last: 280, Collection: 320, Writes: 3, Grows: 1}},
		Collections:   []LedgerCollection{{PK: "P", Known: 450, Added: 100, Grows: 1}},
		IndexKeys:     []LedgerCollection{{Index: "GSI1", PK: "G", Known: -10, Added: -50}},
	}
	c := LedgerFile{Format: LedgerFormat, Disagreements: []Disagreement{withCounts(tx, 1, 1, 4, 9, 4, 9)}}

	merged, err := MergeLedgers(schema, a, b, c)
	if err != nil {
		t.Fatalf("MergeLedgers(a, b, c) error %v", err)
	}
	got := merged.Export()
	want := LedgerFile{Format: LedgerFormat, First: 98, Last: 105, Observed: 7,
		Targets: []LedgerTarget{{Target: designs.MainTable, RCU: 3, WCU: 4, ReadCalls: 3, WriteCalls: 2}, {Target: "GSI1", WCU: 1, WriteCalls: 1}},
		Keys: []LedgerKey{{Target: designs.MainTable, Key: "HOT", RCU: 3, WCU: 4, Calls: 5, ReadCalls: 3, WriteCalls: 2,
			ByPattern: []PatternWeight{{"AP-01", 12}, {"AP-02", 3}}, Seconds: []LedgerSecond{{98, 1, 0}, {100, 2, 2}, {105, 0, 2}}},
			{Target: "GSI1", Key: "G", WCU: 1, Calls: 1, WriteCalls: 1, ByPattern: []PatternWeight{{"AP-04", 3}}, Seconds: []LedgerSecond{{104, 0, 1}}}},
		Patterns: []PatternUsage{{PatternOp: PatternOp{"AP-01", designs.PutItem}, Calls: 3, WCU: 6, Local: 5, LocalCalls: 3},
			{PatternOp: PatternOp{"AP-06", designs.Query}, Calls: 2, RCU: 1, Filtered: 2, Returned: 2, Evaluated: 6}},
		Disagreements: []Disagreement{withCounts(tx, 6, 3, 24, 23, 4, 2)},
		// An item's first size is the first file's, its latest and its
		// share of its collection the largest; a collection's known bytes
		// the largest: the rest is summed.
		Items:       []LedgerItem{{ID: "x", PK: "P", SK: "A", First: 100, Last: 300, Collection: 320, Writes: 5, Grows: 3}},
		Collections: []LedgerCollection{{PK: "P", Known: 500, Added: 300, Grows: 3}},
		IndexKeys:   []LedgerCollection{{Index: "GSI1", PK: "G", Known: 40, Added: -10, Grows: 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MergeLedgers(a, b, c).Export() =\n%+v\nwant\n%+v", got, want)
	}
}
