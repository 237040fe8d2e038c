package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// LimitsText says which limits a run is under, for its first lines.
func LimitsText(lim bench.Limits) string {
	if lim.Off {
		return "DynamoDB's limits off (LIMITS=off): nothing is throttled"
	}
	k := lim.Scale // settled by the run (bench.RunLimited, or the endpoint's emulator)
	return fmt.Sprintf("DynamoDB's limits emulated partition by partition, scale %g (a partition serves %s RCU/s and %s WCU/s)",
		k, figure.Units(ddbitem.PartitionRCU*k), figure.Units(ddbitem.PartitionWCU*k))
}

// limitsOf is the limits a run was under: what the emulator measured at,
// else what the run was given (a run that stopped before measuring).
func limitsOf(out bench.Outcome) bench.Limits {
	if t := out.Throttling; t != nil {
		return bench.Limits{Scale: t.Scale}
	}
	return out.Limits
}

// throttling writes what the emulator measured beside the model's
// forecast: per pattern, calls and the DynamoDB requests they made, the
// SDK's retries, throttled calls, batch items left unprocessed, cancelled
// transactions and p99 with retries; per partition that refused, when it
// began, what it held against its limit, and the rate and share measured
// against the forecast.
func (p *printer) throttling(out bench.Outcome) {
	t := out.Throttling
	if t == nil {
		return
	}
	p.f("## Throttling, emulated\n\n")
	if t.ClientRetries {
		p.f("Every call went through an emulation of DynamoDB's limits (scale %g, %s table): a refused attempt got DynamoDB's own error, which the client retried with its own SDK, out of sight; each attempt counts as a call, and latencies are each attempt's. ", t.Scale, t.Billing)
	} else {
		p.f("Every call went through an emulation of DynamoDB's limits (scale %g, %s table): a refused attempt got DynamoDB's own error, which the SDK's retryer retried with its backoff and retry quota (a transaction cancelled for throttling is not retried); latencies above include those retries. ", t.Scale, t.Billing)
	}
	if t.Refused == 0 {
		p.f("Nothing was throttled.\n\n")
		return
	}
	all, by := patternCalls(out)
	p.f("%s ended throttled; they made %d DynamoDB requests (each page, and each sending of a write in conflict, is one), %s; attempts refused: %d",
		throttledOf(all), t.Calls, retriedText(t), t.Refused)
	if t.Unprocessed > 0 {
		p.f("; %d batch items came back unprocessed", t.Unprocessed)
	}
	if t.Cancelled > 0 {
		p.f("; %d transactions were cancelled for throttling", t.Cancelled)
	}
	p.f(". *Calls* are the pattern's calls, as the latency table counts them; *Requests*, the DynamoDB requests they made.\n\n")
	p99 := p99s(out)
	var rows [][]string
	for _, pt := range t.Patterns {
		if pt.Refused == 0 && pt.Unprocessed == 0 {
			continue
		}
		c := by[pt.Pattern]
		rows = append(rows, []string{string(pt.Pattern), strconv.FormatInt(c.calls, 10), strconv.FormatInt(pt.Calls, 10), strconv.FormatInt(pt.Retries, 10),
			strconv.FormatInt(pt.Refused, 10), fmt.Sprintf("%d (%.1f%%)", c.throttled, pct(c.throttled, c.calls)),
			strconv.FormatInt(pt.Unprocessed, 10), strconv.FormatInt(pt.Cancelled, 10), p99(pt.Pattern)})
	}
	head := []string{"Pattern", "Calls", "Requests", "SDK retries", "Refused attempts", "Throttled calls", "Unprocessed items", "Cancelled tx", "p99 with retries"}
	if t.ClientRetries { // no retry seen: no column of them
		head = slices.Delete(head, 3, 4)
		head[len(head)-1] = "p99"
		for i := range rows {
			rows[i] = slices.Delete(rows[i], 3, 4)
		}
	}
	p.table("lrrrrrrrr"[:len(head)], head, rows)
	p.refusers(t)
	if t.Isolations > 0 {
		p.f("%s isolated on a partition of its own after its partition stayed at %.0f%% or more of a limit for %s (split for heat)%s.\n\n",
			figure.Count(t.Isolations, "partition key value was", "partition key values were"), 100*throughput.HotShare, seconds(throughput.DefaultIsolateAfter.Seconds()), mark(splitForHeat()))
	}
}

// retriesText is the run's SDK retries for the headline, or that they
// were the client's, unseen.
func retriesText(t *emulate.Throttling) string {
	if t.ClientRetries {
		return "retried by the client, unseen"
	}
	return fmt.Sprintf("%d SDK retries", t.Retries)
}

// retriedText is retriesText for the throttling section's sentence.
func retriedText(t *emulate.Throttling) string {
	if t.ClientRetries {
		return "which the client retried out of sight"
	}
	return fmt.Sprintf("which the SDK retried %d times", t.Retries)
}

// callCount is a count of pattern calls, each a call of the design's
// pattern function however many DynamoDB requests it made, and how many
// of them ended throttled.
type callCount struct{ calls, throttled int64 }

// patternCalls counts the run's pattern calls as the engine classed them,
// all and per pattern: the one count the headline, the throttling section
// and the latency table share.
func patternCalls(out bench.Outcome) (all callCount, by map[designs.PatternID]callCount) {
	count := func(m vegeta.Metrics) callCount {
		return callCount{int64(m.Requests), int64(m.StatusCodes[strconv.Itoa(engine.StatusThrottled)])}
	}
	by = map[designs.PatternID]callCount{}
	for _, pm := range out.Patterns {
		by[pm.ID] = count(pm.Metrics)
	}
	return count(out.Total), by
}

// throttledOf says how many of the pattern calls ended throttled, of how
// many, and their share: "7 of 60 pattern calls (11.7%)".
func throttledOf(c callCount) string {
	return fmt.Sprintf("%d of %d pattern calls (%.1f%%)", c.throttled, c.calls, pct(c.throttled, c.calls))
}

// refusers writes the partitions and budgets that refused, in one table
// by first refusal.
func (p *printer) refusers(t *emulate.Throttling) {
	type row struct {
		first time.Time
		cells []string
	}
	var rows []row
	for _, pt := range t.Partitions {
		rows = append(rows, row{pt.First, []string{targetName(pt.Target), partitionName(pt), code(strings.Join(pt.Keys, ", ")), pt.Side, reasonCell(pt.Reason),
			fmt.Sprintf("%.1f s", pt.FirstSecond), strconv.Itoa(pt.ThrottledSeconds),
			fmt.Sprintf("%s of %s", figure.Units(pt.HeldUnits), figure.Units(pt.Limit)),
			fmt.Sprintf("%s / %s (%s)", decimal1(pt.ForecastRate), decimal1(pt.MeasuredRate), diff(pt.MeasuredRate, pt.ForecastRate)),
			fmt.Sprintf("%.1f%% / %.1f%%", 100*pt.ForecastShare, 100*pt.Share)}})
	}
	for _, b := range t.Budgets {
		rows = append(rows, row{b.First, []string{targetName(b.Target), "budget (" + b.Budget + ")", "—", b.Side, reasonCell(b.Reason),
			fmt.Sprintf("%.1f s", b.FirstSecond), strconv.Itoa(b.ThrottledSeconds), "—", "—", "—"}})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return a.first.Compare(b.first) })
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = r.cells
	}
	what := "Partitions"
	if len(t.Budgets) > 0 {
		what = "Partitions and budgets"
	}
	p.f("%s that refused, by first refusal (seconds from the emulator's first call). *Reason* is the throttling reason its refusals answered, as DynamoDB's ThrottlingReasons and CloudWatch's throttling metrics name it. *Held* is the units a second it served in the seconds it refused, against its limit. *Rate* is the mix's requests per second at which the model puts this partition at its limit (its demand per request, with the calls throttled or given up for a transaction conflict put back), then the rate its held units stand for. *Share* is the model's share refused at the run's %s requests/s, then the share of the calls that reached the partition in the seconds it refused and ended throttled. For real DynamoDB, both forecasts rest on where the emulator placed the keys%s.", what, decimal1(t.Rate), mark(partitionForecast(t.Billing)))
	if len(t.Budgets) > 0 {
		p.f(" A *budget* refused before any partition was asked: the table's or index's provisioned throughput, an on-demand one's warm throughput (as it has grown) or the maximum throughput it was given, or the account's table quota; the capacity section gives the rate at which the mix reaches each.")
	}
	p.f("\n\n")
	p.table("lllllrrrrr", []string{"Target", "Partition", "Busiest keys", "Side", "Reason", "First refusal", "Seconds refused", "Held units/s", "Rate: forecast / measured", "Share: forecast / measured"}, cells)
}

// p99s gives each pattern's p99 with the caller's retries, as the
// emulated sections' tables show it.
func p99s(out bench.Outcome) func(designs.PatternID) string {
	p99 := map[designs.PatternID]time.Duration{}
	for _, pm := range out.Patterns {
		p99[pm.ID] = pm.Metrics.Latencies.P99
	}
	return func(id designs.PatternID) string { return engine.Latency(p99[id].Round(10 * time.Microsecond)) }
}

// reasonCell shows a throttling reason as code; a dash for a row written
// before rows named theirs.
func reasonCell(r string) string {
	if r == "" {
		return "—"
	}
	return "`" + r + "`"
}

func partitionName(pt emulate.PartitionThrottles) string {
	if pt.Isolated {
		return fmt.Sprintf("%d (isolated)", pt.Partition)
	}
	return strconv.Itoa(pt.Partition)
}

func pct(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func decimal1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// diff is how far measured is from forecast, in percent.
func diff(measured, forecast float64) string {
	if forecast == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.0f%%", 100*(measured-forecast)/forecast)
}
