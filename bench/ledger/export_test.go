package ledger

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/designs"
)

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
