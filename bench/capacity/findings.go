package capacity

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// maxGrowthFindings bounds the growth sentences per kind: the report
// lists the rest.
const maxGrowthFindings = 3

// findings turns a report into one sentence per finding, for people:
// each names the target, the key, the limit with its number, and a rate.
func findings(r Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range r.Hot {
		if seen[h.Target] || h.Score == 0 {
			continue
		}
		seen[h.Target] = true
		s := fmt.Sprintf("The hottest partition key of %s is %q (%.0f%% of its 3×WCU+RCU weight, mostly %s), peaking at %s RCU/s and %s WCU/s",
			targetName(h.Target), h.Key, 100*h.Share, h.Pattern, figure.Units(h.PeakRCU), figure.Units(h.PeakWCU))
		if h.ThrottleRate > 0 {
			s += fmt.Sprintf("; its partition reaches %s at %s requests/s of this mix", r.PartitionLimit, figure.Units(h.ThrottleRate))
		}
		out = append(out, s+".")
	}
	if c := r.Ceiling; c != nil {
		where := place(c.Target, c.Key)
		s := fmt.Sprintf("The first limit this mix reaches is %s on %s, at %s requests/s (%s× the measured %s requests/s)",
			c.Limit, where, figure.Units(c.Rate), figure.Units(c.Factor), figure.Units(r.MeasuredRate))
		if c.Pattern != "" {
			s += fmt.Sprintf(", driven mostly by %s", c.Pattern)
		}
		if c.BackPressure {
			s += ", and a GSI that cannot absorb its writes throttles the base table's writes too"
		}
		if c.Splittable {
			s += "; adaptive capacity may move this key's busiest items to partitions of their own over time, which helps traffic spread over many items but never lifts one item above the limit"
		}
		if sh := c.Sharing; sh != nil {
			s += ". " + sharingText(sh)
		}
		if c.EventualReads {
			s += ". " + EventualText
		}
		out = append(out, s+".")
	}
	if w := r.Warm; w != nil {
		out = append(out, warmFinding(w))
	}
	if f := r.Forecast; f != nil {
		out = append(out, forecastFinding(r, f)...)
	}
	told := map[string]int{}
	for _, g := range r.Growth {
		if s := growthFinding(r, g); s != "" && told[g.Kind] < maxGrowthFindings {
			told[g.Kind]++
			out = append(out, s)
		}
	}
	out = append(out, fmt.Sprintf("This mix costs $%.4f per million requests on demand and $%.4f provisioned at %.0f%% utilisation (%s %s table prices of %s).",
		r.Cost.OnDemand, r.Cost.Provisioned, 100*r.Cost.Utilization, r.Cost.Region, r.Cost.TableClass, r.Cost.PriceDate))
	for _, p := range r.Patterns {
		if s := filterFinding(p); s != "" {
			out = append(out, s)
		}
	}
	for _, d := range r.Disagreements {
		out = append(out, fmt.Sprintf("DynamoDB Local reported %s capacity units for %s (%s) on %s where AWS's rules give %s (%d of %d calls differ).",
			figure.Units(d.ExampleLocal), d.Pattern, d.Op, targetName(d.Target), figure.Units(d.ExampleUnits), d.Differing, d.Calls))
	}
	return out
}

// filterFinding describes what a pattern's filtered or counting calls paid
// for beyond what they returned.
func filterFinding(p PatternUsage) string {
	calls := p.Evaluating()
	if calls == 0 {
		return ""
	}
	what := "filters"
	switch {
	case p.Filtered > 0 && p.Counted > 0:
		what = "filters and counts"
	case p.Counted > 0:
		what = "counts (Select=COUNT)"
	}
	s := fmt.Sprintf("%s %s: DynamoDB charges every item it evaluates, so its %s %s calls paid for %s items",
		p.Pattern, what, figure.Thousands(calls), p.Op, figure.Thousands(p.Evaluated))
	if p.Counted == 0 && p.Evaluated > 0 {
		s += fmt.Sprintf(" and returned %s (%.0f%%)", figure.Thousands(p.Returned), 100*float64(p.Returned)/float64(p.Evaluated))
	}
	s += fmt.Sprintf(", %s RCU a call", figure.Units(p.RCU/float64(max(1, p.Calls))))
	if p.LocalCharged > 0 {
		s += fmt.Sprintf("; %s of them are charged at DynamoDB Local's own figure, as the items they evaluated were not known", figure.Thousands(p.LocalCharged))
	}
	return s + "."
}

// forecastFinding describes the target rate's outcome.
func forecastFinding(r Report, f *Forecast) []string {
	if len(f.Over) == 0 {
		return []string{fmt.Sprintf("At the target %s requests/s no partition key, table or index reaches its limit.", figure.Units(f.Rate))}
	}
	worst := f.Over[0]
	where := place(worst.Target, worst.Key)
	out := []string{fmt.Sprintf("At the target %s requests/s about %.0f%% of requests would be throttled (inferred: the share over each limit is refused): %s would need %s RCU/s and %s WCU/s against %s (%.1f× its limit).",
		figure.Units(f.Rate), 100*f.ThrottledFraction, where, figure.Units(worst.RCU), figure.Units(worst.WCU), worst.Limit, worst.Utilization)}
	if f.BurstBank > 0 {
		s := fmt.Sprintf("Burst capacity would hold off the table-level throttling at %s requests/s for about %s if the table had left its throughput unused for the %.0f s before (a full bank; AWS keeps up to %.0f s of it, best effort)",
			figure.Units(f.Rate), duration(f.BurstSeconds), f.BurstBank, f.BurstBank)
		if f.BurstAfterRunSeconds > 0 {
			s += fmt.Sprintf(", and for about %s after running at the measured rate (inferred: the bank keeps what that rate leaves unused)", duration(f.BurstAfterRunSeconds))
		} else {
			s += "; running at the measured rate leaves nothing in the bank"
		}
		out = append(out, s+".")
	}
	if s := replayFinding(r, f); s != "" {
		out = append(out, s)
	}
	return out
}

// replayFinding says where the throughput engine, replaying the run's hot
// keys at the target rate on the run's placement, refuses most.
func replayFinding(r Report, f *Forecast) string {
	if f.Replay == nil || len(f.Replay.Partitions) == 0 {
		return ""
	}
	ps := slices.Clone(f.Replay.Partitions)
	slices.SortStableFunc(ps, func(a, b ReplayedPartition) int { return cmp.Compare(b.Refused, a.Refused) })
	var parts []string
	for _, p := range ps[:min(3, len(ps))] {
		where := fmt.Sprintf("%s partition %d (%s)", targetName(p.Target), p.Partition, strings.Join(p.Keys, ", "))
		if p.Partition < 0 {
			where = targetName(p.Target) + "'s budget"
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%% of its %ss, in %d of %.0f s", where, 100*p.Refused, p.Side, p.Seconds, r.Seconds))
	}
	return fmt.Sprintf("Replayed at the target %s requests/s through the throughput engine the emulated limits run, on this run's placement (each call as measured, %s times as many; each key on its own), the hot keys' partitions would refuse: %s.",
		figure.Units(f.Rate), figure.Units(f.Rate/max(r.MeasuredRate, 1e-9)), strings.Join(parts, "; "))
}

// sharingText says how a key's ceiling depends on where its partition's
// neighbours are placed, which AWS does not publish.
func sharingText(sh *Sharing) string {
	with := "alone among the hot keys"
	if len(sh.With) > 0 {
		with = "with " + strings.Join(sh.With, ", ")
	}
	return fmt.Sprintf("That rate is its partition's as this run placed the keys (%s, one draw: bench --placement-seed picks another): "+
		"%s requests/s with a partition of its own, %s with the other hot keys spread over the %d partitions as likely, %s with all %d hot keys on its partition; "+
		"placed at random, two of the %d hot keys share a partition with p = %.1f %%",
		with, figure.Units(sh.Alone), figure.Units(sh.Expected), sh.Partitions, figure.Units(sh.Worst), sh.HotKeys, sh.HotKeys, 100*sh.Odds)
}

// warmFinding describes a new on-demand table's own ceiling.
func warmFinding(w *WarmCeiling) string {
	whose := fmt.Sprintf("A new on-demand table serves %s RRU/s, or %s WRU/s, or a linear combination of the two (its warm throughput, and each GSI's)",
		figure.Thousands(w.ReadUnits), figure.Thousands(w.WriteUnits))
	if w.Declared {
		whose = fmt.Sprintf("The scenario's warm throughput is %s RRU/s or %s WRU/s, or a linear combination (the table's and each GSI's; inferred to combine as a new table's)",
			figure.Thousands(w.ReadUnits), figure.Thousands(w.WriteUnits))
	}
	s := fmt.Sprintf("%s: this mix reaches it on %s at %s requests/s (%s× the measured rate)",
		whose, targetName(w.Target), figure.Units(w.Rate), figure.Units(w.Factor))
	if w.GrowTo > 0 {
		s += fmt.Sprintf("; DynamoDB may throttle traffic that more than doubles the previous peak within 30 minutes, so a ramp to %s requests/s takes %d doublings, about %s (inferred: counted from the warm throughput as the first peak)",
			figure.Units(w.GrowTo), w.Doublings, duration(w.GrowSeconds))
	}
	if w.DayOneRefused > 0 {
		s += fmt.Sprintf(", and at the target rate on day one %.0f%% of those units would be refused", 100*w.DayOneRefused)
	}
	if !w.Declared {
		s += "; pre-warm the table, or declare its warm throughput in the scenario (Warm) to see the ceiling it would have"
	}
	return s + "."
}

// growthFinding describes one growing item or collection that has a limit.
func growthFinding(r Report, g Growth) string {
	if g.Kind == "index key" {
		return fmt.Sprintf("Partition key %q of index %s gathered %s bytes during the run (%s bytes/s at %s requests/s): a GSI key has no size limit, but it keeps growing with traffic, every Query of it reads more, and all its writes land on one key.",
			g.Key, g.Target, figure.Thousands(g.Added), figure.Units(g.BytesPerSecond), figure.Units(r.MeasuredRate))
	}
	if g.Limit == 0 || g.SecondsToLimit == 0 {
		return ""
	}
	what, limit := fmt.Sprintf("Item %q", g.Key), "400 KB item limit"
	if g.Sort != "" {
		what = fmt.Sprintf("Item %q / %q", g.Key, g.Sort)
	}
	if g.Kind == "collection" {
		what, limit = fmt.Sprintf("The item collection of partition key %q", g.Key), "10 GB LSI item-collection limit"
	}
	s := fmt.Sprintf("%s grew by %s bytes during the run to %s bytes (%s bytes/s at %s requests/s): it reaches the %s in %s",
		what, figure.Thousands(g.Added), figure.Thousands(g.Bytes), figure.Units(g.BytesPerSecond), figure.Units(r.MeasuredRate), limit, duration(g.SecondsToLimit))
	if g.SecondsAtTarget > 0 {
		s += fmt.Sprintf(", or %s at the target %s requests/s", duration(g.SecondsAtTarget), figure.Units(r.TargetRate))
	}
	return s + "."
}

// place names a partition key of a target, or the whole target.
func place(target, key string) string {
	if key == "" {
		return targetName(target)
	}
	return fmt.Sprintf("partition key %q of %s", key, targetName(target))
}

// targetName names a target for people.
func targetName(t string) string {
	switch t {
	case designs.MainTable:
		return "the table"
	case wholeCall:
		return "the whole call"
	}
	return "index " + t
}

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
