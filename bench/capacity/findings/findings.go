package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// Analyze is the capacity model's report of the ledger l, worded: what a
// run, a merge of shards and the specs of either give.
func Analyze(m capacity.Model, l *ledger.Ledger) capacity.Report {
	r := m.Analyze(l)
	r.Findings = Of(r)
	return r
}

// maxGrowthFindings bounds the growth sentences per kind: the report
// lists the rest.
const maxGrowthFindings = 3

// Of turns a report into one sentence per finding, for people: each
// names the target, the key, the limit with its number, and a rate, and
// says what every figure beyond the run's own rests on (claim).
func Of(r capacity.Report) []string {
	out, _ := findings(r)
	return out
}

// findings is Of, and what its claims got wrong, for the specs.
func findings(r capacity.Report) (out, bad []string) {
	add := func(cs ...*claim) {
		for _, c := range cs {
			if c != nil {
				out, bad = append(out, c.done()), append(bad, c.bad...)
			}
		}
	}
	add(firstLimitFinding(r), laterLimitsFinding(r))
	seen := map[string]bool{}
	for _, h := range r.Hot {
		if seen[h.Target] || h.Score == 0 {
			continue
		}
		seen[h.Target] = true
		add(hotFinding(r, h))
	}
	if c := r.Ceiling; c != nil {
		add(ceilingFinding(r, c))
	}
	if w := r.Warm; w != nil {
		add(warmFinding(w))
	}
	if f := r.Forecast; f != nil {
		add(forecastFinding(r, f)...)
	}
	told := map[string]int{}
	for _, g := range r.Growth {
		if c := growthFinding(r, g); c != nil && told[g.Kind] < maxGrowthFindings {
			told[g.Kind]++
			add(c)
		}
	}
	add(costFinding(r.Cost))
	for _, p := range r.Patterns {
		add(filterFinding(p))
	}
	add(disagreementFinding(r.Disagreements))
	add(putBackFinding(r.PutBack))
	return out, bad
}

// putBackFinding says how many denied calls were put back at less than
// their own size: the forecast is exact only for the others.
func putBackFinding(p *capacity.PutBack) *claim {
	if p == nil || p.Approximate == 0 {
		return nil
	}
	return new(claim).say("The demand of %s of the %s calls the limits denied (each counted once per partition key value) is put back approximately, a Query or Scan at what calls on its value lately consumed and a call of unknown size at what a served call there consumed; the rest at their own size (put_back in metrics.json)",
		ran(figure.Thousands(p.Approximate)), ran(figure.Thousands(p.Denied)))
}

// disagreementFinding says, in one sentence, how often the test bed's own
// consumed capacity differed from AWS's rules, and where the differences
// are listed: they tell how far DynamoDB Local is from the service, not
// where a design meets its first limit.
func disagreementFinding(ds []ledger.Disagreement) *claim {
	if len(ds) == 0 {
		return nil
	}
	var differing, calls int64
	for _, d := range ds {
		differing, calls = differing+d.Differing, calls+d.Calls
	}
	ops := "operations"
	if len(ds) == 1 {
		ops = "operation"
	}
	return new(claim).say("The consumed capacity the test bed reported differs from AWS's rules for %s pattern %s on a target (%s of their %s calls); the report uses AWS's rules throughout, and the appendix at the end of summary.md lists each (disagreements in metrics.json)",
		ran(strconv.Itoa(len(ds))), name(ops), ran(figure.Thousands(differing)), ran(figure.Thousands(calls)))
}

// forecastOr says whose a figure is: real DynamoDB's only when AWS's pages
// state every rule it applies, else the model's forecast.
func forecastOr(src *rules.Source) name {
	if src.Documented() {
		return "on real DynamoDB"
	}
	return "forecast"
}

// hotFinding describes a target's hottest key and where its partition
// reaches its limit.
func hotFinding(r capacity.Report, h capacity.HotKey) *claim {
	c := new(claim).say("The hottest partition key of %s is %q (%s of its %s weight",
		name(capacity.TargetName(h.Target)), name(h.Key), ran(percent(h.Share)), cited(rules.Cite("hot-key-rank"), "3×WCU+RCU")).mark().
		say(", mostly %s), peaking at %s RCU/s and %s WCU/s", name(h.Pattern), ran(figure.Units(h.PeakRCU)), ran(figure.Units(h.PeakWCU)))
	if h.ThrottleRate > 0 {
		src := h.ThrottleRateSource
		c.say("; its partition, with every key this run placed there, reaches %s at %s requests/s of this mix (%s)",
			cited(src, r.PartitionLimit), cited(src, figure.Units(h.ThrottleRate)), forecastOr(src))
	}
	return c
}

// ceilingFinding describes the first limit the mix reaches.
func ceilingFinding(r capacity.Report, c *capacity.Ceiling) *claim {
	cl := new(claim).say("The first limit this mix reaches (%s) is %s on %s, at %s requests/s (%s× the measured %s requests/s)",
		forecastOr(c.Source), cited(c.Source, c.Limit), name(place(c.Target, c.Key)), cited(c.Source, figure.Units(c.Rate)),
		cited(c.Source, figure.Units(c.Factor)), ran(figure.Units(r.MeasuredRate)))
	if c.Pattern != "" {
		cl.say(", driven mostly by %s", name(c.Pattern))
	}
	if c.Reason != "" {
		cl.say(", on its %s side, where DynamoDB answers %s", name(c.Side), name(c.Reason))
	}
	if c.BackPressure {
		cl.say(", and a GSI that cannot absorb its writes throttles the base table's writes too")
	}
	if c.Splittable {
		cl.say("; adaptive capacity may move this key's busiest items to partitions of their own over time, which helps traffic spread over many items but never lifts one item above the limit")
	}
	cl.mark()
	if sh := c.Sharing; sh != nil && sh.HotKeys > 1 {
		sharingText(cl, sh)
	}
	if c.EventualReads {
		eventualText(cl, c.Target)
	}
	return cl
}

// filterFinding describes what a pattern's filtered or counting calls paid
// for beyond what they returned.
func filterFinding(p ledger.PatternUsage) *claim {
	calls := p.Evaluating()
	if calls == 0 {
		return nil
	}
	what := "filters"
	switch {
	case p.Filtered > 0 && p.Counted > 0:
		what = "filters and counts"
	case p.Counted > 0:
		what = "counts (Select=COUNT)"
	}
	c := new(claim).say("%s %s: DynamoDB charges every item it evaluates, so its %s %s calls paid for %s items",
		name(p.Pattern), name(what), ran(figure.Thousands(calls)), name(p.Op), cited(rules.Cite("filter-charge"), figure.Thousands(p.Evaluated)))
	if p.Counted == 0 && p.Evaluated > 0 {
		c.say(" and returned %s (%s)", ran(figure.Thousands(p.Returned)), ran(percent(float64(p.Returned)/float64(p.Evaluated))))
	}
	c.say(", %s RCU a call", ran(figure.Units(p.RCU/float64(max(1, p.Calls))))).mark()
	if p.LocalCharged > 0 {
		c.say("; %s of them are charged at DynamoDB Local's own figure, as the items they evaluated were not known", ran(figure.Thousands(p.LocalCharged)))
	}
	return c
}

// forecastFinding describes the target rate's outcome.
func forecastFinding(r capacity.Report, f *capacity.Forecast) []*claim {
	if len(f.Over) == 0 {
		return []*claim{new(claim).say("At the target %s requests/s no partition key, table or index reaches its limit (%s)",
			ran(figure.Units(f.Rate)), forecastOr(f.Source)).rests(f.Source)}
	}
	worst := f.Over[0]
	out := []*claim{new(claim).say("At the target %s requests/s about %s of requests would be throttled (forecast: the share over each limit is refused): %s would need %s RCU/s and %s WCU/s against %s (%s× its limit)",
		ran(figure.Units(f.Rate)), cited(f.Source, percent(f.ThrottledFraction)), name(place(worst.Target, worst.Key)),
		ran(figure.Units(worst.RCU)), ran(figure.Units(worst.WCU)), cited(f.Source, worst.Limit), cited(f.Source, fmt.Sprintf("%.1f", worst.Utilization)))}
	if f.BurstBank > 0 {
		c := new(claim).say("Burst capacity would hold off the table-level throttling at %s requests/s for about %s if the table had left its throughput unused for the %s before (a full bank; AWS keeps up to %s of it, best effort)",
			ran(figure.Units(f.Rate)), cited(f.BurstSource, duration(f.BurstSeconds)), cited(f.BurstSource, duration(f.BurstBank)), cited(f.BurstSource, duration(f.BurstBank))).mark()
		if f.BurstAfterRunSeconds > 0 {
			c.say(", and for about %s after running at the measured rate (the bank keeps what that rate leaves unused)", cited(f.BurstAfterRunSource, duration(f.BurstAfterRunSeconds)))
		} else {
			c.say("; running at the measured rate leaves nothing in the bank").rests(f.BurstAfterRunSource)
		}
		out = append(out, c)
	}
	return append(out, replayFinding(r, f))
}

// replayFinding says where the throughput engine, replaying the run's hot
// keys at the target rate on the run's placement, refuses most.
func replayFinding(r capacity.Report, f *capacity.Forecast) *claim {
	if f.Replay == nil || len(f.Replay.Partitions) == 0 {
		return nil
	}
	ps := slices.Clone(f.Replay.Partitions)
	slices.SortStableFunc(ps, func(a, b capacity.ReplayedPartition) int { return cmp.Compare(b.Refused, a.Refused) })
	var parts []string
	for _, p := range ps[:min(3, len(ps))] {
		where := fmt.Sprintf("%s partition %d (%s)", capacity.TargetName(p.Target), p.Partition, strings.Join(p.Keys, ", "))
		if p.Partition < 0 {
			where = capacity.TargetName(p.Target) + "'s budget"
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%% of its %ss, in %d of %.0f s", where, 100*p.Refused, p.Side, p.Seconds, r.Seconds))
	}
	return new(claim).say("Replayed at the target %s requests/s through the throughput engine the emulated limits run, on this run's placement (each call as measured, %s times as many; each key on its own), the hot keys' partitions would refuse (forecast): %s",
		ran(figure.Units(f.Rate)), ran(figure.Units(f.Rate/max(r.MeasuredRate, 1e-9))), cited(f.ReplaySource, strings.Join(parts, "; ")))
}

// maxShared bounds the shared partitions a finding names.
const maxShared = 3

// sharingText says how a key's ceiling depends on where the other hot
// keys are placed, which AWS does not publish (the rate as placed counts
// every key placed there, light ones too): the key alone, with the
// others spread as likely and all together, then which hot keys share a
// partition under this placement and what each alone would take.
func sharingText(c *claim, sh *capacity.Sharing) {
	with := "no other hot key"
	if len(sh.With) > 0 {
		with = quoted(sh.With)
	}
	c.say(". That rate is its partition's as this run placed the keys, light ones included, with %s: one draw of a placement AWS does not publish (bench --placement-seed picks another)", name(with))
	c.say(". On a partition of its own it would reach %s requests/s; with the other hot keys and the light ones spread evenly over the %s partitions, %s; with all %s hot keys on its partition and the light ones spread, %s",
		cited(sh.Source, figure.Units(sh.Alone)), cited(sh.Source, strconv.Itoa(sh.Partitions)), cited(sh.Source, figure.Units(sh.Expected)),
		cited(sh.Source, strconv.Itoa(sh.HotKeys)), cited(sh.Source, figure.Units(sh.Worst)))
	if len(sh.Shared) > 0 {
		var parts []string
		for _, p := range sh.Shared[:min(maxShared, len(sh.Shared))] {
			keys := make([]string, len(p.Keys))
			for i, k := range p.Keys {
				keys[i] = fmt.Sprintf("%q (%s)", k, figure.Units(p.Alone[i]))
			}
			keys[0] = fmt.Sprintf("%q (alone %s requests/s)", p.Keys[0], figure.Units(p.Alone[0]))
			parts = append(parts, fmt.Sprintf("on partition %d, %s, together %s", p.Partition, and(keys), figure.Units(p.Rate)))
		}
		if n := len(sh.Shared) - maxShared; n > 0 {
			parts = append(parts, "and on "+figure.Count(n, "more partition", "more partitions"))
		}
		c.say(". Under this placement the hot keys that share a partition are %s", cited(sh.Source, strings.Join(parts, "; ")))
	}
	switch {
	case sh.HotKeys > sh.Partitions:
		c.say("; with %s hot keys on %s partitions some share on any placement", cited(sh.Source, strconv.Itoa(sh.HotKeys)), cited(sh.Source, strconv.Itoa(sh.Partitions)))
	case sh.HotKeys > 1:
		c.say("; placed at random, two of the %s hot keys would share one of the %s partitions with p = %s",
			cited(sh.Source, strconv.Itoa(sh.HotKeys)), cited(sh.Source, strconv.Itoa(sh.Partitions)), cited(sh.Source, fmt.Sprintf("%.1f %%", 100*sh.Odds)))
	}
}

// quoted lists keys in quotes: "A", "B" and "C".
func quoted(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return and(q)
}

// and lists words: "a", "a and b", "a, b and c".
func and(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// warmFinding describes a new on-demand table's own ceiling.
func warmFinding(w *capacity.WarmCeiling) *claim {
	c := new(claim)
	if w.Declared {
		c.say("The scenario's warm throughput is %s RRU/s or %s WRU/s, or a linear combination (the table's and each GSI's)",
			cited(w.Source, figure.Thousands(w.ReadUnits)), cited(w.Source, figure.Thousands(w.WriteUnits)))
	} else {
		c.say("A new on-demand table serves %s RRU/s, or %s WRU/s, or a linear combination of the two (its warm throughput)",
			cited(w.Source, figure.Thousands(w.ReadUnits)), cited(w.Source, figure.Thousands(w.WriteUnits)))
	}
	c.say(": this mix reaches it on %s at %s requests/s (%s× the measured rate)",
		name(capacity.TargetName(w.Target)), cited(w.Source, figure.Units(w.Rate)), cited(w.Source, figure.Units(w.Factor))).mark()
	if !w.Declared && w.Target == designs.MainTable {
		c.say("; a new GSI is taken to serve as much").rests(rules.Cite("warm-gsi")).mark()
	}
	if w.GrowTo > 0 {
		c.say("; DynamoDB may throttle traffic that more than doubles the previous peak within %s", cited(rules.Cite("growth-factor"), duration(ddbitem.GrowSeconds))).mark()
		steps := "doublings"
		if w.Doublings == 1 {
			steps = "doubling"
		}
		c.say(", so a ramp to %s requests/s takes %s %s from the warm throughput, about %s at a doubling every window",
			cited(w.GrowSource, figure.Units(w.GrowTo)), cited(w.GrowSource, strconv.Itoa(w.Doublings)), name(steps), cited(w.GrowSource, duration(w.GrowSeconds))).mark()
	}
	if w.DayOneRefused > 0 {
		c.say(", and at the target rate on day one %s of those units would be refused", cited(w.RefusedSource, percent(w.DayOneRefused))).mark()
	}
	if !w.Declared {
		c.say("; pre-warm the table, or declare its warm throughput in the scenario (Warm) to see the ceiling it would have")
	}
	return c
}

// growthFinding describes one growing item or collection that has a limit.
func growthFinding(r capacity.Report, g capacity.Growth) *claim {
	if g.Kind == "index key" {
		return new(claim).say("Partition key %q of index %s gathered %s bytes during the run (%s bytes/s at %s requests/s): a GSI key has no size limit, but it keeps growing with traffic, every Query of it reads more, and all its writes land on one key",
			name(g.Key), name(g.Target), ran(figure.Thousands(g.Added)), ran(figure.Units(g.BytesPerSecond)), ran(figure.Units(r.MeasuredRate)))
	}
	if g.Limit == 0 || g.SecondsToLimit == 0 {
		return nil
	}
	what, limit := fmt.Sprintf("Item %q", g.Key), "400 KB item limit"
	if g.Sort != "" {
		what = fmt.Sprintf("Item %q / %q", g.Key, g.Sort)
	}
	if g.Kind == "collection" {
		what, limit = fmt.Sprintf("The item collection of partition key %q", g.Key), "10 GB LSI item-collection limit"
	}
	c := new(claim).say("%s grew by %s bytes during the run to %s bytes (%s bytes/s at %s requests/s): growing so, it would reach the %s in %s",
		name(what), ran(figure.Thousands(g.Added)), ran(figure.Thousands(g.Bytes)), ran(figure.Units(g.BytesPerSecond)), ran(figure.Units(r.MeasuredRate)),
		cited(g.Source, limit), cited(g.Source, duration(g.SecondsToLimit)))
	if g.SecondsAtTarget > 0 {
		c.say(", or %s at the target %s requests/s", cited(g.Source, duration(g.SecondsAtTarget)), ran(figure.Units(r.TargetRate)))
	}
	return c.say(" (forecast)")
}

// costFinding prices the mix.
func costFinding(c capacity.Cost) *claim {
	prices := rules.Cite("prices")
	return new(claim).say("This mix costs %s per million requests on demand (%s)",
		cited(prices, fmt.Sprintf("$%.4f", c.OnDemand)), cited(prices, fmt.Sprintf("%s %s table prices of %s", c.Region, c.TableClass, c.PriceDate))).mark().
		say(" and %s provisioned at %s utilisation", cited(prices, fmt.Sprintf("$%.4f", c.Provisioned)), cited(c.UtilizationSource, percent(c.Utilization)))
}

// place names a partition key of a target, or the whole target.
func place(target, key string) string {
	if key == "" {
		return capacity.TargetName(target)
	}
	return fmt.Sprintf("partition key %q of %s", key, capacity.TargetName(target))
}

// percent renders a share as a whole percentage.
func percent(share float64) string { return fmt.Sprintf("%.0f%%", 100*share) }

// duration renders seconds as the largest sensible unit.
func duration(s float64) string {
	switch {
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	case s < 2*3600:
		return fmt.Sprintf("%.0f min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.1f h", s/3600)
	case s < 2*365*86400:
		return fmt.Sprintf("%.0f days", s/86400)
	}
	return fmt.Sprintf("%.1f years", s/(365*86400))
}

// eventualText says of a key whose partition's limit is set by eventually
// consistent reads that AWS was measured serving one key half as much
// again as the partition limit the model gives (the engine serves a
// partition's reads whatever their consistency: the charges and the
// ledger keep none per key). On the table, that its reads are eventually
// consistent is read from its pattern's (eventualReads), and says so.
func eventualText(c *claim, space string) {
	c.say(". Its reads are eventually consistent")
	if space == designs.MainTable {
		c.rests(rules.Cite("eventual-by-pattern")).mark()
	}
	c.say(": one key read so was measured served at about %s RCU/s in its first ten minutes, not %s, so this rate may be a third low",
		cited(rules.Cite("eventual-key"), figure.Thousands(ddbitem.EventualKeyRCU)), cited(rules.Cite("partition-reads"), figure.Thousands(ddbitem.PartitionRCU)))
}
