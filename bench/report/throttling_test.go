package report

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/findings"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
)

// throttledSample is the sample's mix with a plain write added (AP-08,
// which the SDK retries when throttled) run under DynamoDB's limits at
// scale 0.01 (30 RCU/s and 10 WCU/s a partition): the write side of the
// table's partition 3, which holds the hottest key CLIENT#1, refuses
// AP-08 14 times in seconds 1 and 2, and the table's warm throughput
// refuses AP-03 4 times. AP-08 is retried 11 times and 3 of its calls give
// up; 4 AP-03 transactions are cancelled (the SDK does not retry those).
//
// Calls by i (every 50 ms from t0): AP-06 at i%5 of 0 and 3, AP-08 at 1,
// AP-03 at 2, AP-07 at 4; second s holds i from 20s-1 to 20s+18.
func throttledSample() bench.Outcome {
	cat := append(slices.Clone(catalog), designs.Pattern{ID: "AP-08", Name: "record payment", Op: designs.UpdateItem, Index: designs.MainTable})
	retried := map[int]bool{21: true, 26: true, 36: true, 41: true, 51: true} // AP-08, served after one retry
	gaveUp := map[int]bool{31: true, 46: true, 56: true}                      // AP-08, refused three times
	cancelled := map[int]bool{27: true, 37: true, 47: true, 57: true}         // AP-03
	out := calls(cat, []int{1, 3, 0, 1, 2}, map[designs.PatternID]int{"AP-03": 1, "AP-06": 2, "AP-07": 1, "AP-08": 1},
		func(i int, p designs.Pattern, r *vegeta.Result) {
			switch {
			case retried[i]:
				r.Latency += 25 * time.Millisecond // the SDK's backoff
			case gaveUp[i]:
				r.Latency += 70 * time.Millisecond
				r.Code, r.Error = engine.StatusThrottled, "throttled: ThrottlingException"
			case cancelled[i]:
				r.Code, r.Error = engine.StatusThrottled, "throttled: transaction cancelled: ThrottlingError"
			case p.ID == "AP-07" && i%20 == 19:
				r.Code, r.Error = engine.Classify(designs.ErrNotFound)
			}
		})
	out.Capacity = throttledCapacity()
	const demand = 1.75 // WCU per request of the mix on the partition
	out.Throttling = &emulate.Throttling{Scale: 0.01, Billing: "on-demand", Rate: 20,
		// AP-03's last two requests were cut short before their first
		// attempt; AP-06's calls each read a second page half the time.
		Patterns: []emulate.PatternThrottles{
			{Pattern: "AP-03", Calls: 12, Attempts: 10, Refused: 4, Throttled: 4, Cancelled: 4, Conflicts: 3, ConflictCancelled: 2},
			{Pattern: "AP-06", Calls: 36, Attempts: 36},
			{Pattern: "AP-07", Calls: 12, Attempts: 12},
			{Pattern: "AP-08", Calls: 12, Attempts: 23, Retries: 11, Refused: 14, Throttled: 3},
		},
		Partitions: []emulate.PartitionThrottles{{Target: designs.MainTable, Partition: 3, Keys: []string{"CLIENT#1", "CLIENT#4", "CLIENT#2"}, Reason: "TableWriteKeyRangeThroughputExceeded",
			Side: "write", Limit: 10, First: t0.Add(1250 * time.Millisecond), FirstSecond: 1.2, ThrottledSeconds: 2,
			Refused: 14, Calls: 18, Throttled: 7, HeldUnits: 10.4, DemandPerRequest: demand,
			ForecastRate: 10 / demand, MeasuredRate: 10.4 / demand, Share: 7.0 / 12, ForecastShare: 1 - 10/demand/20}},
		Budgets: []emulate.BudgetThrottles{{Target: designs.MainTable, Budget: emulate.BudgetWarm, Side: "write", Reason: "TableWriteKeyRangeThroughputExceeded",
			First: t0.Add(1350 * time.Millisecond), FirstSecond: 1.4, ThrottledSeconds: 2, Refused: 4}},
		Keys: []emulate.KeySecond{
			{Target: designs.MainTable, Key: "CLIENT#1", Second: t0.Add(time.Second), Refused: 7},
			{Target: designs.MainTable, Key: "CLIENT#4", Second: t0.Add(time.Second), Refused: 1}, // not among the hot keys
			{Target: designs.MainTable, Key: "CLIENT#1", Second: t0.Add(2 * time.Second), Refused: 10},
		},
		Calls: 72, Retries: 11, Refused: 18, Throttled: 7, Cancelled: 4, Isolations: 1,
		Conflicts: 3, ConflictCancelled: 2, ConflictItems: []emulate.ItemConflicts{{Item: "CLIENT#1 / CLIENT", Conflicts: 2}, {Item: "CLIENT#2 / CLIENT", Conflicts: 1}},
	}
	return out
}

// throttledCapacity is the sample's capacity report for throttledSample:
// its mix, and limits at scale 0.01.
func throttledCapacity() capacity.Report {
	r := sampleCapacity()
	r.Scale, r.PartitionLimit = 0.01, "30 RCU/s or 10 WCU/s per partition (DynamoDB's limits × 0.01)"
	r.Hot[0].ThrottleRate, r.Hot[1].ThrottleRate = 5.71, 33.3
	// CLIENT#1 shares its partition with two more of the table's three hot
	// keys (the emulator's partition 3).
	r.Ceiling = &capacity.Ceiling{Target: designs.MainTable, Key: "CLIENT#1", Limit: "10 WCU/s per partition (DynamoDB's limits × 0.01)",
		Rate: 5.71, Factor: 0.286, Pattern: "AP-03", Source: r.Ceiling.Source,
		Sharing: &capacity.Sharing{Partitions: 4, HotKeys: 3, Odds: capacity.ShareOdds(3, 4), Alone: 8, Expected: 7.2, Worst: 5.71, Placed: 5.71,
			With: []string{"CLIENT#4", "CLIENT#2"}, Source: r.Ceiling.Source,
			Shared: []capacity.SharedPartition{{Partition: 3, Keys: []string{"CLIENT#1", "CLIENT#4", "CLIENT#2"}, Alone: []float64{8, 40, 50}, Rate: 5.71}}}}
	r.Ceiling.Side, r.Ceiling.Reason, r.Ceiling.Metric = capacity.SideWrite, "TableWriteKeyRangeThroughputExceeded", "WriteKeyRangeThroughputThrottleEvents"
	// Scaled, the first limit is tied with GSI1's partition of INVOICE#9.
	first := &r.LimitsInOrder[0]
	first.Limit, first.Rate, first.Factor, first.KeyShare = r.Ceiling.Limit, 5.71, 0.286, 5.71/8
	first.Tied = []capacity.Tie{{Kind: capacity.LimitPartition, Target: "GSI1", Key: "INVOICE#9", Side: capacity.SideWrite,
		Reason: "IndexWriteKeyRangeThroughputExceeded", Rate: 5.9, Source: r.Ceiling.Source}}
	r.LimitsInOrder[1].Rate, r.LimitsInOrder[1].Factor = 160, 8
	r.Warm = nil
	r.Patterns = []ledger.PatternUsage{
		{PatternOp: ledger.PatternOp{Pattern: "AP-03", Op: designs.TransactWriteItems}, Calls: 12, WCU: 120, Local: 60, LocalCalls: 12},
		{PatternOp: ledger.PatternOp{Pattern: "AP-06", Op: designs.Query}, Calls: 24, RCU: 36, Local: 36, LocalCalls: 24},
		{PatternOp: ledger.PatternOp{Pattern: "AP-07", Op: designs.Query}, Calls: 12, RCU: 6, Local: 5, LocalCalls: 10, Filtered: 12,
			Evaluated: 48, Returned: 12, LocalCharged: 2},
		{PatternOp: ledger.PatternOp{Pattern: "AP-08", Op: designs.UpdateItem}, Calls: 12, WCU: 12, Local: 12, LocalCalls: 12},
	}
	r.Disagreements = []ledger.Disagreement{{PatternOp: ledger.PatternOp{Pattern: "AP-03", Op: designs.TransactWriteItems}, Target: designs.MainTable,
		Calls: 12, Differing: 12, Units: 120, LocalUnits: 60, ExampleUnits: 10, ExampleLocal: 5}}
	r.Findings = findings.Of(r)
	return r
}

func TestThrottledRunReportsWhatTheEmulatorRefused(t *testing.T) {
	out := throttledSample()
	f := files(t, out)
	sum := f[SummaryFile]
	contains(t, SummaryFile, sum,
		"Limits: DynamoDB's limits emulated partition by partition, scale 0.01 (a partition serves 30 RCU/s and 10 WCU/s).",
		"## Throttling, emulated\n\n",
		"(scale 0.01, on-demand table)",
		"7 of 60 pattern calls (11.7%) ended throttled; they made 72 DynamoDB requests (each page, and each sending of a write in conflict, is one), which the SDK retried 11 times; attempts refused: 18; 4 transactions were cancelled for throttling.",
		"| AP-03 | 12 | 12 | 0 | 4 | 4 (33.3%) | 0 | 4 | 7.00ms |",
		"| AP-08 | 12 | 12 | 11 | 14 | 3 (25.0%) | 0 | 0 | 75.00ms |",
		"| table | 3 | `CLIENT#1, CLIENT#4, CLIENT#2` | write | `TableWriteKeyRangeThroughputExceeded` | 1.2 s | 2 | 10.4 of 10 | 5.7 / 5.9 (+4%) | 71.4% / 58.3% |\n"+
			"| table | budget (warm throughput) | — | write | `TableWriteKeyRangeThroughputExceeded` | 1.4 s | 2 | — | — | — |",
		"Partitions and budgets that refused", "at the run's 20.0 requests/s")
	lacks(t, SummaryFile, sum, "| AP-06 | 24 |", "| AP-07 | 12 |") // nothing refused: no row
	contains(t, SummaryFile, sum, "## Transaction conflicts, emulated\n\n",
		"3 item-level conflicts; 2 transactions cancelled for a conflict.",
		"| AP-03 | 12 | 3 | 2 | 7.00ms |",
		"| `CLIENT#1 / CLIENT` | 2 |")
	if i, j := strings.Index(sum, "## Throttling, emulated"), strings.Index(sum, "## Capacity on real DynamoDB"); i < 0 || j < 0 || i > j {
		t.Errorf("summary.md: the throttling section (at %d) should come before the capacity section (at %d)", i, j)
	}

	h := Headline(out)
	for _, want := range []string{"; limits scale 0.01: 7 of 60 pattern calls (11.7%) throttled, 11 SDK retries", "; 3 transaction conflicts, 2 transactions cancelled by them"} {
		if !strings.Contains(h, want) {
			t.Errorf("Headline lacks %q: %q", want, h)
		}
	}
	if strings.Contains(h, "limits off") {
		t.Errorf("Headline of a throttled run says limits off: %q", h)
	}

	m := metricsOf(t, f[MetricsFile])
	th, _ := m["throttling"].(map[string]any)
	if th == nil || th["limits_scale"] != 0.01 || th["scale"] != nil || th["billing"] != "on-demand" || len(th["partitions"].([]any)) != 1 || len(th["budgets"].([]any)) != 1 || len(th["keys"].([]any)) != 3 {
		t.Errorf("metrics.json: throttling %v", m["throttling"])
	}
	if lim, _ := m["limits"].(string); !strings.Contains(lim, "scale 0.01") {
		t.Errorf("metrics.json: limits %q", lim)
	}
}

// heatCell is one second of one key in heat.svg.
var heatCell = regexp.MustCompile(`<rect x="\d+" y="\d+" width="\d+" height="\d+" fill="(#[0-9a-f]{6})"><title>([^<]*)</title></rect>`)

func TestHeatShowsRefusedSeconds(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHeat(&b, throttledSample()); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	wellFormed(t, HeatFile, b.Bytes())
	var refused []string
	for _, c := range heatCell.FindAllStringSubmatch(svg, -1) {
		if strings.Contains(c[2], "attempts refused") {
			if c[1] != refusedColor {
				t.Errorf("heat.svg: a cell with refused attempts is %s, not the refused colour %s: %s", c[1], refusedColor, c[0])
			}
			refused = append(refused, c[2])
		}
	}
	// Keys lists CLIENT#1 in seconds 1 and 2; CLIENT#4 is no hot key, so
	// it has no row.
	if want := []string{"1s: 350.0%, 7 attempts refused", "2s: 300.0%, 10 attempts refused"}; !slices.Equal(refused, want) {
		t.Errorf("heat.svg: cells with refused attempts %q, want %q", refused, want)
	}
	contains(t, HeatFile, svg, "(limits scale 0.01)", "a partition serves 30 RCU/s and 10 WCU/s", ">refused</text>")
	lacks(t, HeatFile, svg, "CLIENT#4")
}

func TestUnthrottledRunSaysLimitsOff(t *testing.T) {
	out := sample()
	if h := Headline(out); !strings.Contains(h, "limits off") || strings.Contains(h, "limits scale") {
		t.Errorf("Headline of a run with limits off = %q", h)
	}
	f := files(t, out)
	contains(t, SummaryFile, f[SummaryFile], "Limits: DynamoDB's limits off (LIMITS=off): nothing is throttled.")
	lacks(t, SummaryFile, f[SummaryFile], "## Throttling")
	lacks(t, HeatFile, f[HeatFile], "attempts refused")
	if m := metricsOf(t, f[MetricsFile]); m["throttling"] != nil {
		t.Errorf("metrics.json of a run with limits off: throttling %v, want null", m["throttling"])
	}
}

func TestThrottledRunWithNothingRefused(t *testing.T) {
	out := sample()
	out.Throttling = &emulate.Throttling{Scale: 1, Billing: "on-demand", Rate: 20, Calls: 60,
		Patterns: []emulate.PatternThrottles{{Pattern: "AP-03", Calls: 15, Attempts: 15}, {Pattern: "AP-06", Calls: 30, Attempts: 30}, {Pattern: "AP-07", Calls: 15, Attempts: 15}}}
	h := Headline(out)
	if !strings.Contains(h, "; limits scale 1: 0 of 60 pattern calls (0.0%) throttled, 0 SDK retries;") || strings.Contains(h, "limits off") {
		t.Errorf("Headline of a run that was not throttled under limits = %q", h)
	}
	var b bytes.Buffer
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	contains(t, SummaryFile, b.String(), "## Throttling, emulated", "Nothing was throttled.\n\n")
	lacks(t, SummaryFile, b.String(), "Partitions that refused", "| Pattern | Calls | SDK retries |")
}

func TestSaturationHeldByBackoffIsTheDesignsUnderItsLimits(t *testing.T) {
	out := throttledSample()
	out.Saturated = &engine.Saturation{At: 1500 * time.Millisecond, Rate: 20, Reason: "a due call waited 0.6 s for a worker", Backoff: true, Retries: 11, BackoffShare: 0.8}
	h := Headline(out)
	if !strings.Contains(h, "; the workers fell behind the pace at 20 calls/s, 1.5 s into measuring, held by the SDK's backoff after throttling (11 SDK retries, whose waits took 80% of the workers' time then)") {
		t.Errorf("Headline = %q", h)
	}
	if strings.Contains(h, "DynamoDB Local could not") || strings.Contains(h, "test bed saturated") {
		t.Errorf("Headline blames the test bed for the SDK's backoff: %q", h)
	}
	var b bytes.Buffer
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	contains(t, SummaryFile, b.String(), "**Held by the SDK's backoff**: The workers fell behind the pace")
	lacks(t, SummaryFile, b.String(), "not the design's")
}

// TestSaturationWithoutRetriesIsTheTestBeds: under emulated limits, workers
// that fell behind with no SDK retry, or retries whose waits took little
// of their time, were held by the test bed, not by the backoff; the report
// says so and names the runs that tell which.
func TestSaturationWithoutRetriesIsTheTestBeds(t *testing.T) {
	for _, c := range []struct {
		name string
		sat  engine.Saturation
		why  string
	}{
		{"no retries", engine.Saturation{Retries: 0}, "with 0 SDK retries: "},
		{"retries that held little", engine.Saturation{Retries: 11, BackoffShare: 0.05}, "with 11 SDK retries whose waits took only 5% of the workers' time then: "},
	} {
		out := throttledSample()
		sat := c.sat
		sat.At, sat.Rate, sat.Reason = 1500*time.Millisecond, 20, "a due call waited 0.6 s for a worker"
		out.Saturated = &sat
		want := "the test bed saturated at 20 calls/s, 1.5 s into measuring, " + c.why +
			"DynamoDB's limits did not hold the workers, this client or DynamoDB Local could not keep the pace, so latencies from then on are the test bed's, not the design's; the same run with LIMITS=off, or at a lower rate (RATE), tells which"
		if h := Headline(out); !strings.Contains(h, "; "+want) || strings.Contains(h, "held by the SDK's backoff") {
			t.Errorf("%s: Headline = %q, want %q", c.name, h, want)
		}
		var b bytes.Buffer
		if err := WriteSummary(&b, out); err != nil {
			t.Fatal(err)
		}
		contains(t, SummaryFile, b.String(), "**Saturated**: "+upper(want)+". A due call waited 0.6 s for a worker.")
		lacks(t, SummaryFile, b.String(), "Held by the SDK's backoff")
	}
}

// TestStoppedBeforeMeasuringSaysItsLimits: a run under scaled limits that
// stopped while seeding measured nothing, yet its report names its limits.
func TestStoppedBeforeMeasuringSaysItsLimits(t *testing.T) {
	out := bench.Outcome{Limits: bench.Limits{Scale: 0.01}, Outcome: engine.Outcome{Scenario: "invoicing/month-end", Design: "invoicing", Interrupted: true}}
	var b bytes.Buffer
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	contains(t, SummaryFile, b.String(), "Limits: DynamoDB's limits emulated partition by partition, scale 0.01")
	lacks(t, SummaryFile, b.String(), "limits off")
}

// A hot key on one item is marked in the hot-keys table, with why
// splitting for heat cannot help it; a table with none says nothing of it.
func TestHotKeyOnOneItemIsMarked(t *testing.T) {
	out := sample()
	var b bytes.Buffer
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	lacks(t, SummaryFile, b.String(), "(one item)", "never splits it")
	out.Capacity.Hot[0].OneItem = true
	b.Reset()
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	contains(t, SummaryFile, b.String(), "`CLIENT#1` (one item)", "never splits it")
}

// heat.svg's columns are the measured window, as every rate of the report:
// seconds charged in the drain after it are left out, and the picture says
// so.
func TestHeatShowsTheMeasuredWindowOnly(t *testing.T) {
	out := throttledSample()
	out.Duration, out.Capacity.Seconds = 2*time.Second, 2 // the refusals of second 2 came in the drain
	var b bytes.Buffer
	if err := WriteHeat(&b, out); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, c := range heatCell.FindAllStringSubmatch(svg, -1) {
		if strings.HasPrefix(c[2], "2s:") {
			t.Errorf("heat.svg shows second 2 of a 2 s window: %s", c[0])
		}
	}
	contains(t, HeatFile, svg, "The 2s measured window; calls that ended in the drain after it are not shown.", "1s: 350.0%, 7 attempts refused")
	wellFormed(t, HeatFile, b.Bytes())
}

// A window that starts mid-second reaches one whole second further into
// the capacity report's columns, which count from the first charge's
// whole second: its last part is shown, not taken for the drain, and the
// drain note gives the window's length, not its column count.
func TestHeatShowsTheLastPartOfAWindowStartedMidSecond(t *testing.T) {
	out := throttledSample()
	out.Started = out.Started.Add(700 * time.Millisecond)
	// The window ends at 2.7 s: column 2 holds its last 0.7 s, and a refusal
	// in second 3 came in the drain.
	out.Duration, out.Capacity.Seconds = 2*time.Second, 2
	out.Throttling.Keys = append(out.Throttling.Keys, emulate.KeySecond{Target: designs.MainTable, Key: "CLIENT#1", Second: t0.Add(3 * time.Second), Refused: 5})
	var b bytes.Buffer
	if err := WriteHeat(&b, out); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	contains(t, HeatFile, svg, "2s: 300.0%, 10 attempts refused")
	contains(t, HeatFile, svg, "The 2s measured window; calls that ended in the drain after it are not shown.")
	lacks(t, HeatFile, svg, "3s: ")
	wellFormed(t, HeatFile, b.Bytes())
}

// TestThrottledCallsHaveOneDenominator: the headline, the throttling
// section and its table count throttled calls among the pattern calls, as
// the latency table counts them, and say so; not among the DynamoDB
// requests those calls made (pages, resent writes), of which there are
// more.
func TestThrottledCallsHaveOneDenominator(t *testing.T) {
	out := throttledSample()
	f := files(t, out)
	sum := f[SummaryFile]
	const share = "7 of 60 pattern calls (11.7%)"
	if h := Headline(out); !strings.Contains(h, ": "+share+" throttled, ") {
		t.Errorf("Headline = %q, want %q", h, share)
	}
	contains(t, SummaryFile, sum, share+" ended throttled; they made 72 DynamoDB requests")
	rows := 0
	for _, pm := range out.Patterns {
		calls, throttled := pm.Metrics.Requests, pm.Metrics.StatusCodes["429"]
		row := regexp.MustCompile(`\n\| ` + string(pm.ID) + ` \| (\d+) \| (\d+) \| (-?\d+) \| \d+ \| (\d+) \(`).FindStringSubmatch(sum)
		if row == nil {
			continue // nothing refused: no row
		}
		rows++
		if row[1] != strconv.FormatUint(calls, 10) || row[4] != strconv.Itoa(throttled) {
			t.Errorf("throttling table: %s has %s calls, %s throttled; the latency table counts %d calls, %d throttled", pm.ID, row[1], row[4], calls, throttled)
		}
		if strings.HasPrefix(row[3], "-") {
			t.Errorf("throttling table: %s has %s SDK retries", pm.ID, row[3])
		}
	}
	if rows != 2 {
		t.Errorf("throttling table: %d rows read, want AP-03's and AP-08's", rows)
	}
	lacks(t, SummaryFile, sum, "% of calls throttled", "of 72 calls")
}

// TestClientRetriesAreNotCounted: an endpoint's report (local --limits)
// sees each attempt of a client's as a call, never its retries: it gives
// no count of SDK retries, and says whose they were.
func TestClientRetriesAreNotCounted(t *testing.T) {
	out := throttledSample()
	th := out.Throttling
	th.ClientRetries, th.Retries = true, 0
	for i := range th.Patterns {
		th.Patterns[i].Retries = 0
	}
	sum := files(t, out)[SummaryFile]
	lacks(t, SummaryFile, sum, "SDK retr", "with retries", "The designs retry")
	contains(t, SummaryFile, sum, "which the client retried with its own SDK, out of sight",
		"they made 72 DynamoDB requests (each page, and each sending of a write in conflict, is one), which the client retried out of sight; attempts refused: 18",
		"| Pattern | Calls | Requests | Refused attempts | Throttled calls | Unprocessed items | Cancelled tx | p99 |",
		"| AP-08 | 12 | 12 | 14 | 3 (25.0%) | 0 | 0 | 75.00ms |",
		"The client retries a conflict as its own code does, out of sight",
		"each attempt one call", "Latency is each attempt's, from its arrival at the endpoint")
	lacks(t, SummaryFile, sum, "workers", "entities were seeded", "intended send time")
	if h := Headline(out); strings.Contains(h, "SDK retries") || !strings.Contains(h, "throttled, retried by the client, unseen") {
		t.Errorf("Headline = %q, want the client's retries unseen, not counted", h)
	}
}

// A second a key's partition served over its limit with no refusal (the
// lease-rush run's 1,400 WCU/s against 1,000 for 2 s) is not "throttled":
// heat.svg says what served it, the partition's one-second bucket, full
// after a quieter second, and the debt of the last call let in, and how
// far that goes.
func TestHeatExplainsASecondServedOverTheLimit(t *testing.T) {
	out := throttledSample()
	out.Throttling.Keys = nil // no refusal: every unit was served
	var b bytes.Buffer
	if err := WriteHeat(&b, out); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	contains(t, HeatFile, svg, "1s: 350.0%, over the limit: served from the partition's one-second bucket (full after a quieter second) and the last call's debt", "≥ 100%")
	lacks(t, HeatFile, svg, ">throttled<")
	wellFormed(t, HeatFile, b.Bytes())
}

// TestClientsPaceAndKeys: an endpoint's calls (Outcome.Clients) were
// paced and keyed by the clients; the report says so where a bench run's
// names its pacer and key distributions, which the outcome leaves empty.
func TestClientsPaceAndKeys(t *testing.T) {
	out := throttledSample()
	out.Clients, out.Pacer = true, ""
	for i := range out.Patterns {
		out.Patterns[i].Keys = ""
	}
	fs := files(t, out)
	contains(t, MetricsFile, fs[MetricsFile], `"pacer": "the clients'"`, `"keys": "the clients'"`)
	contains(t, SummaryFile, fs[SummaryFile], "| the clients' |", "Latency is each attempt's, from its arrival at the endpoint")
}
