package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/findings"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// errInvoiceNumberTaken is a design's refusal, as the sample's AP-03 meets
// it.
var errInvoiceNumberTaken = designs.Refusal("invoice number taken")

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var t0 = time.Date(2026, 5, 22, 10, 15, 0, 0, time.UTC)

var catalog = []designs.Pattern{
	{ID: "AP-03", Name: "create invoice", Op: designs.TransactWriteItems, Index: designs.MainTable},
	{ID: "AP-06", Name: "view client and recent invoices", Op: designs.Query, Index: designs.MainTable},
	{ID: "AP-07", Name: "view invoice and line items", Op: designs.Query, Index: "GSI1"},
}

// sample is a run of 60 calls over 3 s: AP-06 reads, AP-03 writes and
// once loses its condition, AP-07 misses every fifth call (both refusals)
// and fails once.
func sample() bench.Outcome {
	out := calls(catalog, []int{1, 1, 0, 2}, map[designs.PatternID]int{"AP-03": 1, "AP-06": 2, "AP-07": 1},
		func(i int, p designs.Pattern, r *vegeta.Result) {
			switch {
			case p.ID == "AP-07" && i%5 == 3:
				r.Code, r.Error = engine.Classify(fmt.Errorf("AP-07: invoice 9: %w", designs.ErrNotFound))
			case i == 6:
				r.Code, r.Error = engine.Classify(errors.Join(errInvoiceNumberTaken, &types.TransactionCanceledException{
					CancellationReasons: []types.CancellationReason{{Code: aws.String("ConditionalCheckFailed")}}}))
			case i == 59:
				r.Code, r.Error = 500, "dynamodb: ValidationException"
			}
		})
	out.Capacity = sampleCapacity()
	return out
}

// calls is a run of 60 calls over 3 s, one every 50 ms from t0, call i
// of pattern cat[order[i%len(order)]] and 1 to 7 ms long; outcome sets a
// call's status, error or latency.
func calls(cat []designs.Pattern, order []int, weight map[designs.PatternID]int, outcome func(i int, p designs.Pattern, r *vegeta.Result)) bench.Outcome {
	out := bench.Outcome{Limits: bench.Limits{Off: true}, Outcome: engine.Outcome{
		Scenario: "invoicing/month-end", About: "clients read their invoices while a few big clients are billed",
		Design: "invoicing", Table: "ddbh-invoicing-bench-1", Pacer: "Constant{20 hits/1s}", Pool: 100, Workers: 8,
		RandomSeed: 7, Duration: 3 * time.Second, Warmup: time.Second, SeedTime: 1500 * time.Millisecond,
		Started: t0, Elapsed: 3 * time.Second,
	}}
	seq := map[string]uint64{}
	var results vegeta.Results
	for i := range 60 {
		p := cat[order[i%len(order)]]
		r := vegeta.Result{Attack: string(p.ID), Seq: seq[string(p.ID)], Code: 200, Method: string(p.Op),
			URL: "ddb://invoicing/" + string(p.ID), Timestamp: t0.Add(time.Duration(i+1) * 50 * time.Millisecond),
			Latency: time.Duration(1+i%7) * time.Millisecond}
		seq[r.Attack]++
		outcome(i, p, &r)
		results = append(results, r)
	}
	for _, p := range cat {
		var m vegeta.Metrics
		for i := range results {
			if results[i].Attack == string(p.ID) {
				m.Add(&results[i])
			}
		}
		m.Close()
		out.Patterns = append(out.Patterns, engine.PatternMetrics{Pattern: p, Weight: weight[p.ID], Keys: "zipf", Metrics: m})
	}
	errs := engine.NewTally()
	for i := range results {
		out.Total.Add(&results[i])
		errs.Add(&results[i])
	}
	out.Total.Close()
	out.Errors, out.Refusals = errs.Errors(), errs.Refusals()
	out.ResultsFile = writeCalls(results)
	return out
}

// callsDir holds the results files the tests' runs write, as the engine
// does.
var callsDir string

func TestMain(m *testing.M) {
	var err error
	if callsDir, err = os.MkdirTemp("", "report-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	_ = os.RemoveAll(callsDir)
	os.Exit(code)
}

// writeCalls writes results to a new results file and returns its path.
func writeCalls(results vegeta.Results) string {
	f, err := os.CreateTemp(callsDir, "results-*.bin")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	enc := vegeta.NewEncoder(f)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			panic(err)
		}
	}
	return f.Name()
}

// readCalls reads a results file back.
func readCalls(t *testing.T, path string) vegeta.Results {
	t.Helper()
	var rs vegeta.Results
	if err := engine.ReadResults(path, func(r *vegeta.Result) error { rs = append(rs, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rs
}

// sampleCapacity is the model's report of the sample run, its sources as
// the model gives them on demand and its findings written from it.
func sampleCapacity() capacity.Report {
	placed := rules.Cite("partition-reads", "partition-writes", "partitions-on-demand", "placement", "hot-keys", "light-keys")
	r := capacity.Report{
		Billing: "on-demand", Start: t0, Seconds: 3, Requests: 60, MeasuredRate: 20,
		Scale: 1, PartitionLimit: "3,000 RCU/s or 1,000 WCU/s per partition",
		Targets: []capacity.TargetUsage{
			{Target: designs.MainTable, Kind: "table", RCU: 41.5, WCU: 120, PeakRCU: 15, PeakWCU: 44, Keys: 12},
			{Target: "GSI1", Kind: "gsi", RCU: 7.5, WCU: 30, PeakRCU: 3, PeakWCU: 11, Keys: 15},
		},
		Hot: []capacity.HotKey{
			{Target: designs.MainTable, Key: "CLIENT#1", Score: 300, Share: 0.75, RCU: 30, WCU: 90, PeakRCU: 12, PeakWCU: 35,
				Pattern: "AP-03", ThrottleRate: 571, ThrottleRateSource: placed, Series: []capacity.Point{{T: 0, RCU: 9, WCU: 25}, {T: 1, RCU: 12, WCU: 35}, {T: 2, RCU: 9, WCU: 30}}},
			{Target: "GSI1", Key: "INVOICE#9", Score: 40, Share: 0.4, RCU: 4, WCU: 12, PeakRCU: 2, PeakWCU: 6,
				Pattern: "AP-07", ThrottleRate: 3333, ThrottleRateSource: placed, Series: []capacity.Point{{T: 1, RCU: 2, WCU: 6}, {T: 2, RCU: 2, WCU: 6}}},
		},
		Ceiling: &capacity.Ceiling{Target: designs.MainTable, Key: "CLIENT#1", Limit: "1,000 WCU/s per partition", Rate: 571, Factor: 28.6, Pattern: "AP-03",
			Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded", Metric: "WriteKeyRangeThroughputThrottleEvents", Source: placed},
		LimitsInOrder: []capacity.Limit{
			{Kind: capacity.LimitPartition, Target: designs.MainTable, Key: "CLIENT#1", Pattern: "AP-03", Limit: "1,000 WCU/s per partition", Rate: 571, Factor: 28.6,
				Side: capacity.SideWrite, Reason: "TableWriteKeyRangeThroughputExceeded", Metric: "WriteKeyRangeThroughputThrottleEvents", KeyShare: 1,
				Change: "spread the key's traffic over more partition key values (write sharding), or move its busiest items to keys of their own", Source: placed},
			{Kind: capacity.LimitBudget, Target: designs.MainTable, Limit: "40,000 WCU/s on-demand table quota", Rate: 16000, Factor: 800,
				Side: capacity.SideWrite, Reason: "TableWriteAccountLimitExceeded", Metric: "WriteAccountLimitThrottleEvents",
				Change: "ask AWS to raise the per-table write quota (Service Quotas), or cut the units each call takes", Source: rules.Cite("quota-reads", "quota-writes")},
		},
		Growth: []capacity.Growth{{Kind: "collection", Key: "CLIENT#1", Bytes: 52_000, Added: 12_000, BytesPerSecond: 4000,
			Limit: ddbitem.MaxCollectionBytes, SecondsToLimit: 2.68e6, Source: rules.Cite("lsi-collection", "growth-extrapolation")}},
		Cost: capacity.Cost{Region: "us-east-1", TableClass: "Standard", PriceDate: "2026-05-01", Source: "https://aws.amazon.com/dynamodb/pricing/",
			RCUPerRequest: 0.82, WCUPerRequest: 2.5, OnDemand: 3.2313, Provisioned: 0.9876, Utilization: 0.7,
			UtilizationSource: rules.Cite("provisioned-utilisation")},
		Patterns: []ledger.PatternUsage{
			{PatternOp: ledger.PatternOp{Pattern: "AP-03", Op: designs.TransactWriteItems}, Calls: 15, WCU: 150, Local: 75, LocalCalls: 15},
			{PatternOp: ledger.PatternOp{Pattern: "AP-06", Op: designs.Query}, Calls: 30, RCU: 45, Local: 45, LocalCalls: 30},
			{PatternOp: ledger.PatternOp{Pattern: "AP-07", Op: designs.Query}, Calls: 15, RCU: 7.5, Local: 6, LocalCalls: 12, Filtered: 15,
				Evaluated: 60, Returned: 15, LocalCharged: 3},
		},
		Warm: &capacity.WarmCeiling{Target: designs.MainTable, Side: "WRU", Limit: "4,000 WRU/s warm throughput of a new on-demand table",
			ReadUnits: 12000, WriteUnits: 4000, Rate: 1600, Factor: 80, GrowTo: 9000, Doublings: 3, GrowSeconds: 5400,
			Source: rules.Cite("warm-reads", "warm-writes", "warm-combination"), GrowSource: rules.Cite("growth-factor", "growth-window", "growth-doublings")},
		Rules: []rules.Rule{
			{ID: "write-unit", Name: "write unit", Value: 1024, Unit: "bytes", Basis: "documented", Source: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html"},
			{ID: "growth-doublings", Name: "growth counted in doublings from the warm throughput", Basis: "inferred", Source: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html"},
		},
		Disagreements: []ledger.Disagreement{{PatternOp: ledger.PatternOp{Pattern: "AP-03", Op: designs.TransactWriteItems}, Target: designs.MainTable,
			Calls: 15, Differing: 15, Units: 150, LocalUnits: 75, ExampleUnits: 10, ExampleLocal: 5}},
	}
	r.FirstLimit = &r.LimitsInOrder[0]
	r.Findings = findings.Of(r)
	return r
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (run go test -update and review the diff)\ngot:\n%s", name, path, got)
	}
}

func TestGolden(t *testing.T) {
	for _, run := range []struct {
		suffix  string // of the golden files' names, before the extension
		outcome func() bench.Outcome
	}{
		{"", sample},
		{"-throttled", throttledSample},
	} {
		for _, c := range []struct {
			file  string
			write func(io.Writer, bench.Outcome) error
		}{
			{"summary.md", WriteSummary},
			{"metrics.json", WriteMetrics},
			{"heat.svg", WriteHeat},
		} {
			ext := filepath.Ext(c.file)
			name := strings.TrimSuffix(c.file, ext) + run.suffix + ext
			t.Run(name, func(t *testing.T) {
				var b bytes.Buffer
				if err := c.write(&b, run.outcome()); err != nil {
					t.Fatalf("write %s: %v", name, err)
				}
				golden(t, name, b.Bytes())
				if ext == ".svg" {
					wellFormed(t, name, b.Bytes())
				}
			})
		}
	}
}

// wellFormed fails the test when doc is not well-formed XML.
func wellFormed(t *testing.T, name string, doc []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Errorf("%s is not well-formed XML: %v", name, err)
			return
		}
	}
}

func TestResultsReadBackByVegeta(t *testing.T) {
	out := sample()
	var b bytes.Buffer
	if err := WriteResults(&b, out); err != nil {
		t.Fatal(err)
	}
	dec := vegeta.DecoderFor(&b) // what `vegeta report` uses: it detects the format
	if dec == nil {
		t.Fatal("vegeta does not recognise results.bin")
	}
	calls := readCalls(t, out.ResultsFile)
	if len(calls) != 60 {
		t.Fatalf("%d calls in the results file, want 60", len(calls))
	}
	for i, want := range calls {
		var got vegeta.Result
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
		if !got.Equal(want) {
			t.Errorf("result %d: got %+v, want %+v", i, got, want)
		}
	}
	var extra vegeta.Result
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		t.Errorf("after %d results: got %v, want io.EOF", len(calls), err)
	}
}

func TestPlotShowsEveryPattern(t *testing.T) {
	var b bytes.Buffer
	if err := WritePlot(&b, sample()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"<title>invoicing/month-end</title>", `"AP-03: OK"`, `"AP-06: OK"`, `"AP-07: OK"`, `"AP-07: ERROR"`} {
		if !strings.Contains(html, want) {
			t.Errorf("plot.html lacks %s", want)
		}
	}
}

func TestWriteMakesAFolderPerRunAndPointsAtTheNewest(t *testing.T) {
	root := t.TempDir()
	first, err := Write(root, sample())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Base(first), "20260522T101500Z-invoicing-month-end"; got != want {
		t.Errorf("Write: folder %s, want %s", got, want)
	}
	for _, f := range []string{SummaryFile, MetricsFile, ResultsFile, PlotFile, HeatFile} {
		if fi, err := os.Stat(filepath.Join(first, f)); err != nil || fi.Size() == 0 {
			t.Errorf("Write: %s missing or empty (%v)", f, err)
		}
	}
	second, err := Write(root, sample()) // the same second: a folder of its own
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Base(second), "20260522T101500Z-invoicing-month-end-2"; got != want {
		t.Errorf("second Write: folder %s, want %s", got, want)
	}
	if got, err := Latest(root); err != nil || got != second {
		t.Errorf("Latest(root) = %s, %v; want %s", got, err, second)
	}
	if got, err := os.Readlink(filepath.Join(root, LatestLink)); err != nil || got != filepath.Base(second) {
		t.Errorf("readlink latest = %s, %v; want %s", got, err, filepath.Base(second))
	}
}

func TestWriteReportsARunInterruptedBeforeItMeasured(t *testing.T) {
	out := bench.Outcome{Outcome: engine.Outcome{Scenario: "invoicing/month-end", Design: "invoicing", Interrupted: true}}
	dir, err := Write(t.TempDir(), out)
	if err != nil {
		t.Fatalf("Write(interrupted, nothing measured): %v", err)
	}
	summary, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil || !strings.Contains(string(summary), "**Interrupted while seeding**, before measuring") {
		t.Errorf("summary.md of an interrupted run: %v\n%s", err, summary)
	}
}

func TestWriteToKeepsTheCallsTheRunWroteIntoItsFolder(t *testing.T) {
	out := sample()
	dir, err := NewFolder(t.TempDir(), out)
	if err != nil {
		t.Fatal(err)
	}
	streamed := filepath.Join(dir, ResultsFile)
	if err := os.Rename(out.ResultsFile, streamed); err != nil {
		t.Fatal(err)
	}
	out.ResultsFile = streamed
	if err := WriteTo(dir, out); err != nil {
		t.Fatal(err)
	}
	if calls := readCalls(t, streamed); len(calls) != 60 {
		t.Errorf("%d calls left in the run's own results.bin, want its 60", len(calls))
	}
}

// TestLocalsDisagreementsAreAnAppendix: where DynamoDB Local's own figure
// differs from AWS's rules matters to the model, not to a designer: the
// findings give it one line saying where to look, the summary lists it in
// an appendix after everything else, and metrics.json keeps it as it is.
func TestLocalsDisagreementsAreAnAppendix(t *testing.T) {
	f := files(t, sample())
	sum := f[SummaryFile]
	const appendix = "## Appendix: DynamoDB Local against AWS's rules\n\n"
	i := strings.Index(sum, appendix)
	if i < 0 {
		t.Fatalf("summary.md lacks %q:\n%s", appendix, sum)
	}
	if strings.Contains(sum[i+len(appendix):], "\n## ") || i < strings.Index(sum, "## Files") {
		t.Errorf("summary.md: the appendix is not its last section, after the files")
	}
	contains(t, SummaryFile, sum[i:], "| AP-03 | TransactWriteItems | table | 15 of 15 | 150 | 75 | 10 vs 5 |")
	findings := sum[strings.Index(sum, "## Findings"):strings.Index(sum, "## Latency")]
	contains(t, SummaryFile, findings, "differs from AWS's rules for 1 pattern operation on a target (15 of their 15 calls); the report uses AWS's rules throughout, and the appendix at the end of summary.md lists each")
	lacks(t, SummaryFile, findings, "DynamoDB Local reported", "10 vs 5")
	capacity, _ := metricsOf(t, f[MetricsFile])["capacity"].(map[string]any)
	if ds, _ := capacity["disagreements"].([]any); len(ds) != 1 {
		t.Errorf("metrics.json: capacity.disagreements %v, want the one disagreement", capacity["disagreements"])
	}
}
