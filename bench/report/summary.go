package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// WriteSummary writes summary.md: what ran, the capacity model's findings,
// latency and throughput per pattern, errors, and the capacity detail
// behind the findings.
func WriteSummary(w io.Writer, out bench.Outcome) error {
	p := &printer{w: w, service: "DynamoDB Local", short: "Local"}
	if out.Service != "" {
		p.service, p.short = out.Service, "the service"
	}
	st := StatusOf(out)
	p.header(out, st)
	p.thresholds(out.Thresholds)
	if !st.Measured {
		p.f("## Nothing measured\n\n")
		p.f("The run stopped while %s, before its measured phase began: there are no latencies, errors or capacity findings to report.\n\n", st.Phase)
		return p.err
	}
	p.findings(out.Capacity, st)
	p.latency(out, st)
	p.errors(out.Errors)
	p.refusals(out.Refusals)
	p.throttling(out)
	p.conflicts(out)
	if out.Throttling == nil && st.FindingsValid() {
		p.replay(out.Capacity.Replay)
	}
	if out.Service != "" && out.Served != nil {
		p.serviceThrottling(*out.Served)
	}
	if st.FindingsValid() {
		p.capacity(out.Capacity)
	}
	p.files()
	if st.FindingsValid() {
		p.disagreements(out.Capacity.Disagreements)
	}
	return p.err
}

// printer writes markdown and keeps the first error.
type printer struct {
	w   io.Writer
	err error
	// service names what answered the calls, for the figures it gave:
	// "DynamoDB Local", or real DynamoDB; short is the column's word.
	service, short string
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// table writes a markdown table; align holds one of "l" or "r" per column.
func (p *printer) table(align string, head []string, rows [][]string) {
	p.f("| %s |\n|", strings.Join(head, " | "))
	for _, a := range align {
		if a == 'r' {
			p.f("---:|")
		} else {
			p.f("---|")
		}
	}
	p.f("\n")
	for _, r := range rows {
		p.f("| %s |\n", strings.Join(r, " | "))
	}
	p.f("\n")
}

func (p *printer) header(out bench.Outcome, st Status) {
	p.f("# %s\n\n", out.Scenario)
	if f := out.Failure; f != nil {
		p.failure(out, st, f)
	}
	if st.State == StateInterrupted {
		if st.Measured {
			p.f("**Interrupted** %s into the %s asked for: the figures cover what ran until then.\n\n", secs(out.Elapsed), out.Duration)
		} else {
			p.f("**Interrupted while %s**, before measuring: nothing was measured.\n\n", st.Phase)
		}
	}
	if out.Stopped != "" {
		p.f("**Stopped** at %s into measuring: %s. The figures cover the calls made until then.\n\n", secs(out.Duration), out.Stopped)
	}
	if out.About != "" {
		p.f("%s\n\n", out.About)
	}
	p.f("Limits: %s.\n\n", LimitsText(limitsOf(out)))
	p.scale(out)
	if forClients(out) {
		// local --limits served calls it did not make: no seed, workers,
		// seeding or pacer of the harness's were involved.
		p.f("The clients' calls on table `%s`, from %s over %s, each attempt one call.\n\n",
			out.Table, out.Started.UTC().Format("2006-01-02 15:04:05 UTC"), secs(out.Duration))
	} else if st.Measured {
		p.f("Started %s on table `%s` of design %s, seed %d, %d workers.\n",
			out.Started.UTC().Format("2006-01-02 15:04:05 UTC"), out.Table, out.Design, out.RandomSeed, out.Workers)
	} else {
		p.f("Table `%s` of design %s, seed %d, %d workers.\n", out.Table, out.Design, out.RandomSeed, out.Workers)
	}
	switch {
	case forClients(out):
	case st.State == StateComplete:
		p.f("The pacer %s %s after a %s warm-up; %d entities were seeded in %s.\n\n",
			out.Pacer, st.Ran(out), out.Warmup, out.Pool, out.SeedTime.Round(time.Millisecond))
	case st.Measured:
		p.f("%d entities were seeded in %s; after a %s warm-up, the pacer %s %s.\n\n",
			out.Pool, out.SeedTime.Round(time.Millisecond), out.Warmup, out.Pacer, st.Ran(out))
	case st.Phase == PhaseWarmup:
		p.f("%d entities were seeded in %s; the pacer %s %s.\n\n", out.Pool, out.SeedTime.Round(time.Millisecond), out.Pacer, st.Ran(out))
	default:
		p.f("Seeding %d entities did not finish; the pacer %s %s.\n\n", out.Pool, out.Pacer, st.Ran(out))
	}
	if sat := out.Saturated; sat != nil && sat.Backoff {
		p.f("**Held by the SDK's backoff**: %s.\n\n", upper(Saturated(out)))
	} else if sat != nil {
		p.f("**Saturated**: %s.", upper(Saturated(out)))
		if sat.Reason != "" {
			p.f(" %s.", upper(strings.TrimSuffix(strings.TrimSpace(sat.Reason), ".")))
		}
		p.f("\n\n")
	}
	if out.CutOff > 0 {
		p.f("**%d calls were cut short** when the drain after the run ended (%s): still in flight then, they are neither errors nor latencies and are not counted above.\n\n", out.CutOff, engine.DefaultDrain)
	}
	if out.Unsent > 0 {
		p.f("**%d calls were never sent**: they were still waiting for a worker when the run ended, so the workers could not keep up with the pacer.\n\n", out.Unsent)
	}
	fid := out.Fidelity
	if fid.Approximations > 0 {
		p.f("%d writes have an approximate after image: the client could not evaluate their update expression.\n\n", fid.Approximations)
	}
	if fid.Unsure > 0 {
		p.f("%d writes were accounted from an old image the client assumed, because another write of the item was in flight with them (transactions return no images); their sizes may be off by what the other write changed. The client settled such items with %d reads of its own, outside the measured calls",
			fid.Unsure, fid.SettleReads)
		if fid.StillUnsure > 0 {
			p.f("; %d items were still unsure at the end", fid.StillUnsure)
		}
		p.f(".\n\n")
	}
}

// failure opens the summary of a run the test bed failed: what happened,
// when, and the service's last lines.
func (p *printer) failure(out bench.Outcome, st Status, f *engine.Failure) {
	p.f("**FAILED: %s.** %s.\n\n", failedWhen(out, st), FailureReason(f))
	if st.Measured {
		at := failureTime(out, f).UTC().Format("15:04:05.000 UTC")
		p.f("It happened at %s, %s into measuring. ", at, secs(f.At))
		if st.FindingsValid() {
			p.f("Calls after it failed because of it, not because of the design: the capacity findings cover only the %s before it, and the latency and error figures below include the failed calls.\n\n", secs(st.Healthy))
		} else {
			p.f("No call was measured before it, so there are no capacity findings.\n\n")
		}
	}
	if logs := failureLogs(f); logs != "" {
		p.f("The last lines of the test bed's log:\n\n```\n%s\n```\n\n", strings.ReplaceAll(logs, "```", "` ` `"))
	}
}

func (p *printer) findings(r capacity.Report, st Status) {
	switch {
	case !st.FindingsValid():
		p.f("## Findings\n\nNone: the test bed failed before any healthy stretch of measuring.\n\n")
		return
	case st.State == StateFailed:
		p.f("## Findings (the %s before the failure only)\n\n", secs(st.Healthy))
	case st.State == StateInterrupted:
		p.f("## Findings (the %s measured before the interruption)\n\n", secs(st.Healthy))
	default:
		p.f("## Findings\n\n")
	}
	if len(r.Findings) == 0 {
		p.f("The capacity model found nothing to report.\n\n")
		return
	}
	for _, s := range r.Findings {
		p.f("- %s\n", s)
	}
	p.f("\n")
}

func (p *printer) latency(out bench.Outcome, st Status) {
	p.f("## Latency and throughput\n\n")
	if st.State == StateFailed {
		p.f("These figures include the calls after the test bed failed.\n\n")
	}
	if forClients(out) {
		p.f("Latency is each attempt's, from its arrival at the endpoint to its answer: the clients' own waits and retries are theirs, unseen. Rates are per second.\n\n")
	} else {
		p.f("Latency counts from each call's intended send time, so waiting for a busy worker counts too. Rates are per second.\n\n")
	}
	var rows [][]string
	for _, pm := range out.Patterns {
		rows = append(rows, append([]string{string(pm.ID), pm.Name, string(pm.Op), pm.Index, strconv.Itoa(pm.Weight), keysOf(out, pm)},
			metricCells(pm.Metrics)...))
	}
	rows = append(rows, append([]string{"**all**", "", "", "", "", ""}, metricCells(out.Total)...))
	p.f("Success is the share of calls answered, refusals included: a refusal (a condition failed, a rule said no, a key taken, an item not stored) is an outcome the design expects, not an error, as DynamoDB's metrics count a failed condition.\n\n")
	p.table("lllllrrrrrrrrrrr", []string{"Pattern", "Name", "Operation", "Index", "Weight", "Keys",
		"Requests", "Rate", "Throughput", "p50", "p90", "p99", "Max", "Success", "Refused", "Errors"}, rows)
}

func metricCells(m vegeta.Metrics) []string {
	return []string{strconv.FormatUint(m.Requests, 10), fmt.Sprintf("%.1f", m.Rate), fmt.Sprintf("%.1f", m.Throughput),
		engine.Latency(m.Latencies.P50), engine.Latency(m.Latencies.P90), engine.Latency(m.Latencies.P99),
		engine.Latency(m.Latencies.Max), fmt.Sprintf("%.1f%%", 100*m.Success),
		strconv.FormatUint(engine.Refused(m), 10), strconv.FormatUint(engine.Errored(m), 10)}
}

// errors lists the failed calls by pattern, status and error class.
func (p *printer) errors(counts []engine.ErrorCount) {
	if len(counts) == 0 {
		return
	}
	var rows [][]string
	for _, c := range counts {
		rows = append(rows, []string{c.Pattern, strconv.Itoa(int(c.Code)), c.Error, strconv.Itoa(c.Calls)})
	}
	p.f("### Errors\n\n")
	p.table("lrlr", []string{"Pattern", "Status", "Error", "Calls"}, rows)
}

// refusals lists the refused calls by pattern and class.
func (p *printer) refusals(counts []engine.ErrorCount) {
	if len(counts) == 0 {
		return
	}
	var rows [][]string
	for _, c := range counts {
		rows = append(rows, []string{c.Pattern, c.Error, strconv.Itoa(c.Calls)})
	}
	p.f("### Refused\n\n")
	p.f("Calls the design answered with an outcome it expects; a scenario counts a pattern's as errors with RefusalsAsErrors.\n\n")
	p.table("llr", []string{"Pattern", "Refusal", "Calls"}, rows)
}

func (p *printer) capacity(r capacity.Report) {
	p.f("## Capacity on real DynamoDB (%s)\n\n", r.Billing)
	p.f("Computed from item sizes by AWS's rules for %d requests over %.1f s (%.1f requests/s).\n\n", r.Requests, r.Seconds, r.MeasuredRate)
	if d := declaredText(r); d != "" {
		p.f("The design's model declares its traffic: %s.\n\n", d)
	}
	p.targets(r.Targets)
	p.hot(r.Hot, r.PartitionLimit)
	p.growth(r.Growth)
	p.cost(r.Cost)
	p.patterns(r.Patterns)
	p.filtered(r.Patterns)
	p.warm(r.Warm)
	p.rules(r.Rules)
}

// filtered shows what the patterns that filter or count paid for against
// what they returned.
func (p *printer) filtered(ps []ledger.PatternUsage) {
	var rows [][]string
	for _, u := range ps {
		if u.Evaluating() == 0 {
			continue
		}
		kept := "—"
		if u.Evaluated > 0 && u.Counted == 0 {
			kept = fmt.Sprintf("%.0f%%", 100*float64(u.Returned)/float64(u.Evaluated))
		}
		from := "the client's shadow"
		switch {
		case u.LocalCharged >= u.Evaluating():
			from = p.service + "'s figure"
		case u.LocalCharged > 0:
			from = fmt.Sprintf("the shadow; %s's figure for %d calls", p.service, u.LocalCharged)
		}
		rows = append(rows, []string{string(u.Pattern), string(u.Op), strconv.FormatInt(u.Filtered, 10), strconv.FormatInt(u.Counted, 10),
			figure.Thousands(u.Evaluated), figure.Thousands(u.Returned), kept, from})
	}
	if len(rows) == 0 {
		return
	}
	p.f("### Filtered and counting reads\n\n")
	p.f("DynamoDB charges a filtered or counting Query or Scan for every item it evaluated (its ScannedCount), not for what it returned.\n\n")
	p.table("llrrrrrl", []string{"Pattern", "Operation", "Filtered calls", "Counting calls", "Items evaluated", "Items returned", "Kept", "Evaluated items from"}, rows)
}

// warm shows a new on-demand table's own ceiling.
func (p *printer) warm(w *capacity.WarmCeiling) {
	if w == nil {
		return
	}
	p.f("### A new on-demand table\n\n")
	rows := [][]string{{targetName(w.Target), w.Limit + mark(w.Source), figure.Units(w.Rate), fmt.Sprintf("%.1f×", w.Factor), growTo(w), growText(w)}}
	p.table("llrrrl", []string{"Target", "Limit", "Reached at (req/s)", "Of the measured rate", "Grows to (req/s)", "Growth needs"}, rows)
}

func growTo(w *capacity.WarmCeiling) string {
	if w.GrowTo == 0 {
		return "—"
	}
	return figure.Units(w.GrowTo)
}

func growText(w *capacity.WarmCeiling) string {
	if w.Doublings == 0 {
		return "—"
	}
	return fmt.Sprintf("%d doublings, %s%s", w.Doublings, seconds(w.GrowSeconds), mark(w.GrowSource))
}

// rules lists every rule and number the model applied, with what it
// rests on and its source.
func (p *printer) rules(ls []rules.Rule) {
	if len(ls) == 0 {
		return
	}
	var rows [][]string
	for _, l := range ls {
		v := "—"
		if l.Value != 0 {
			v = figure.Units(l.Value) + " " + l.Unit
		}
		basis := l.Basis
		if basis == "inferred" {
			basis = "**inferred**"
		}
		src := l.Source
		if src == "" {
			src = "the model"
		}
		rows = append(rows, []string{code(l.ID), l.Name, v, basis, src})
	}
	p.f("### Rules and limits used\n\n")
	p.f("Each figure above rests on these: documented by AWS, measured on real DynamoDB by a public capture, or inferred where the public record says nothing. A figure beyond the run's own is marked where it appears with its basis and the ids of the rules that set it: [inferred: placement] rests on the row `placement` below.\n\n")
	p.table("lllll", []string{"Id", "Rule", "Value", "Basis", "Source"}, rows)
}

func (p *printer) targets(ts []capacity.TargetUsage) {
	if len(ts) == 0 {
		return
	}
	var rows [][]string
	for _, t := range ts {
		rows = append(rows, []string{targetName(t.Target), t.Kind, figure.Units(t.RCU), figure.Units(t.WCU), figure.Units(t.PeakRCU), figure.Units(t.PeakWCU), strconv.Itoa(t.Keys)})
	}
	p.f("### Tables and indexes\n\n")
	p.table("llrrrrr", []string{"Target", "Kind", "RCU", "WCU", "Peak RCU/s", "Peak WCU/s", "Partition keys"}, rows)
}

func (p *printer) hot(hs []capacity.HotKey, limit string) {
	if len(hs) == 0 {
		return
	}
	var rows [][]string
	oneItem := false
	for _, h := range hs {
		at := "—"
		if h.ThrottleRate > 0 {
			at = figure.Units(h.ThrottleRate)
		}
		key := code(h.Key)
		if h.OneItem {
			key += " (one item)"
			oneItem = true
		}
		rows = append(rows, []string{targetName(h.Target), key, figure.Units(h.Score), fmt.Sprintf("%.0f%%", 100*h.Share),
			figure.Units(h.PeakRCU), figure.Units(h.PeakWCU), at, string(h.Pattern)})
	}
	p.f("### Hottest partition keys\n\n")
	p.f("Ranked as CloudWatch Contributor Insights ranks them (3 × WCU + RCU over the run). ")
	if limit == "" {
		limit = fmt.Sprintf("%s RCU/s or %s WCU/s per partition", figure.Thousands(ddbitem.PartitionRCU), figure.Thousands(ddbitem.PartitionWCU))
	}
	p.f("\"Throttles at\" is the request rate of this mix at which the key's partition, with every key this run placed there, reaches %s: a forecast%s. heat.svg shows each second.\n\n", limit, mark(throttleSource(hs)))
	p.table("llrrrrrl", []string{"Target", "Partition key", "Score", "Share", "Peak RCU/s", "Peak WCU/s", "Throttles at (req/s, forecast)", "Mostly"}, rows)
	if oneItem {
		p.f("A key marked (one item) took all its traffic on a single item. Adaptive capacity can give a hot item a " +
			"partition of its own but never splits it, so that partition's limit is the key's ceiling however the table " +
			"scales: spread the item (write-shard it, or keep each writer's part apart and aggregate) to raise it. " +
			"`make lint` names the items a write pattern rewrites on every call.\n\n")
	}
}

func (p *printer) growth(gs []capacity.Growth) {
	if len(gs) == 0 {
		return
	}
	var rows [][]string
	var src *rules.Source
	for _, g := range gs {
		if g.Source != nil {
			src = g.Source
		}
		kind := g.Kind
		if g.Target != "" {
			kind += " of " + g.Target
		}
		rows = append(rows, []string{kind, code(g.Key), code(g.Sort), figure.Thousands(g.Bytes), figure.Thousands(g.Added),
			figure.Units(g.BytesPerSecond), limitBytes(g.Limit), seconds(g.SecondsToLimit), seconds(g.SecondsAtTarget)})
	}
	p.f("### Growth\n\n")
	if src != nil {
		p.f("The times to a limit are a forecast: the bytes this run added a second, kept up until the limit%s.\n\n", mark(src))
	}
	p.table("lllrrrrrr", []string{"Kind", "Partition key", "Sort key", "Bytes", "Added", "Bytes/s", "Limit", "Time to limit", "At target rate"}, rows)
}

func (p *printer) cost(c capacity.Cost) {
	p.f("### Cost\n\n")
	p.f("Per million requests of this mix: **$%.4f on demand**, **$%.4f provisioned** at %.0f%% utilisation%s ", c.OnDemand, c.Provisioned, 100*c.Utilization, mark(c.UtilizationSource))
	p.f("(%.3f RCU and %.3f WCU per request; %s %s prices of %s, %s).\n\n", c.RCUPerRequest, c.WCUPerRequest, c.Region, c.TableClass, c.PriceDate, c.Source)
}

func (p *printer) patterns(ps []ledger.PatternUsage) {
	if len(ps) == 0 {
		return
	}
	var rows [][]string
	for _, u := range ps {
		per := func(v float64) string {
			if u.Calls == 0 {
				return "—"
			}
			return figure.Units(v / float64(u.Calls))
		}
		rows = append(rows, []string{string(u.Pattern), string(u.Op), strconv.FormatInt(u.Calls, 10), figure.Units(u.RCU), figure.Units(u.WCU),
			per(u.RCU), per(u.WCU), figure.Units(u.Local)})
	}
	p.f("### Capacity per pattern\n\n")
	p.table("llrrrrrr", []string{"Pattern", "Operation", "DynamoDB calls", "RCU", "WCU", "RCU/call", "WCU/call", p.service + "'s units"}, rows)
}

// disagreements is the appendix: where the test bed's own consumed
// capacity differs from AWS's rules. It matters to the model, which needs
// a correction from the field where the service's own figure differs, and
// little to a designer looking for the first limit.
func (p *printer) disagreements(ds []ledger.Disagreement) {
	p.f("\n## Appendix: %s against AWS's rules\n\n", p.service)
	if len(ds) == 0 {
		p.f("%s's consumed capacity agreed with AWS's rules on every call that reported one.\n\n", p.service)
		return
	}
	var rows [][]string
	for _, d := range ds {
		rows = append(rows, []string{string(d.Pattern), string(d.Op), targetName(d.Target), fmt.Sprintf("%d of %d", d.Differing, d.Calls),
			figure.Units(d.Units), figure.Units(d.LocalUnits), fmt.Sprintf("%s vs %s", figure.Units(d.ExampleUnits), figure.Units(d.ExampleLocal))})
	}
	if p.short == "Local" {
		p.f("Where DynamoDB Local's own figure differs, the report uses AWS's rules.\n\n")
	} else {
		p.f("Where %s's own figure differs, the report still uses AWS's rules, as everywhere else; each row is a correction the model needs from the field.\n\n", p.service)
	}
	p.table("lllrrrl", []string{"Pattern", "Operation", "Target", "Calls differing", "Units by AWS's rules", upper(p.short) + "'s units", "Example (rules vs " + p.short + ")"}, rows)
}

func (p *printer) files() {
	p.f("## Files\n\n")
	p.f("- `%s`: every call, in vegeta's format: `vegeta report %s`, `vegeta plot %s > plot.html`\n", ResultsFile, ResultsFile, ResultsFile)
	p.f("- `%s`: latency over time per pattern (vegeta's plot)\n", PlotFile)
	p.f("- `%s`: the hottest partition keys, second by second, against the per-partition limit\n", HeatFile)
	p.f("- `%s`: all of the above for machines\n", MetricsFile)
}

// upper capitalises s's first letter.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// targetName names a table or index for people.
func targetName(t string) string {
	switch t {
	case designs.MainTable:
		return "table"
	case "*":
		return "whole call"
	}
	return t
}

// code shows a key as code; an empty one as a dash.
func code(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// limitBytes is a size limit; 0 means none.
func limitBytes(b int64) string {
	if b == 0 {
		return "—"
	}
	return figure.Bytes(b)
}

// seconds prints a time to a limit; 0 means none.
func seconds(s float64) string {
	if s <= 0 {
		return "—"
	}
	d := time.Duration(s * float64(time.Second))
	switch {
	case d < 2*time.Minute:
		return fmt.Sprintf("%.0f s", s)
	case d < 2*time.Hour:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case d < 48*time.Hour:
		return fmt.Sprintf("%.1f h", d.Hours())
	}
	return fmt.Sprintf("%.0f days", d.Hours()/24)
}

// forClients reports whether out is an endpoint's (local --limits): calls
// clients the harness did not write made, each attempt seen as a call.
func forClients(out bench.Outcome) bool {
	return out.Clients || out.Throttling != nil && out.Throttling.ClientRetries
}

// theClients names the pace and the keys of calls clients made: theirs,
// not a pacer's or a key distribution's of the harness.
const theClients = "the clients'"

// pacerOf is what paced out's calls.
func pacerOf(out bench.Outcome) string {
	if out.Clients {
		return theClients
	}
	return out.Pacer
}

// keysOf is how pattern pm of out picked its keys.
func keysOf(out bench.Outcome, pm engine.PatternMetrics) string {
	if out.Clients {
		return theClients
	}
	return pm.Keys
}
