package capacity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/pricing"
)

// shardModel analyzes the mix with a target rate, so that every part of a
// Report is filled.
var shardModel = Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}

func TestMergeOfOneLedgerIsTheLedger(t *testing.T) {
	l := ledgerOf(shardMix())
	want := shardModel.Analyze(l)
	if len(want.Growth) == 0 || len(want.Disagreements) == 0 || want.Forecast == nil || len(want.Hot) < 3 {
		t.Fatalf("Analyze(mix) = %+v, want growth, disagreements, a forecast and hot keys to compare", want)
	}
	merged, err := ledger.MergeLedgers(schema, l.Export())
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
	want := Model{Schema: schema}.Analyze(ledger.NewLedger(schema))
	for _, files := range [][]ledger.LedgerFile{nil, {ledger.NewLedger(schema).Export()}, {ledger.NewLedger(schema).Export(), ledger.NewLedger(schema).Export()}} {
		merged, err := ledger.MergeLedgers(schema, files...)
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
	merged, err := ledger.MergeLedgers(schema, ledgerOf(halves[0]).Export(), ledgerOf(halves[1]).Export())
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
	var f ledger.LedgerFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("json.Unmarshal(Export() as JSON) error %v", err)
	}
	merged, err := ledger.MergeLedgers(schema, f)
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
	if !strings.Contains(string(data), `"format":"`+ledger.LedgerFormat+`"`) {
		t.Errorf("Export() as JSON starts %.60s, want format %q", data, ledger.LedgerFormat)
	}
}
