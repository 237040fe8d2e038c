package capacity

import (
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/designs"
)

// cite gives every figure of rep that rests on more than the run's own
// charges the Source of the rules it applies.
func (r *run) cite(rep *Report) {
	placed := r.placedSource()
	for i := range rep.Hot {
		if rep.Hot[i].ThrottleRate > 0 {
			rep.Hot[i].ThrottleRateSource = placed
		}
	}
	if c := rep.Ceiling; c != nil {
		c.Source = r.budgetSource()
		if c.Key != "" {
			c.Source = placed
		}
		if c.Sharing != nil {
			c.Sharing.Source = placed
		}
	}
	if w := rep.Warm; w != nil {
		w.Source = rules.Cite("warm-reads", "warm-writes", "warm-combination")
		switch {
		case w.Declared:
			w.Source = rules.Cite("warm-declared")
		case w.Target != designs.MainTable:
			w.Source = rules.Cite("warm-reads", "warm-writes", "warm-combination", "warm-gsi")
		}
		if w.Doublings > 0 {
			w.GrowSource = rules.Cite("growth-factor", "growth-window", "growth-doublings")
		}
		if w.DayOneRefused > 0 {
			w.RefusedSource = rules.Merged(w.Source, rules.Cite("throttled-share"))
		}
	}
	if f := rep.Forecast; f != nil {
		f.Source = rules.Merged(rules.Cite("partition-reads", "partition-writes", "forecast-alone", "light-keys", "throttled-share"), r.budgetSource())
		if f.BurstBank > 0 {
			f.BurstSource = rules.Cite("provisioned-budget", "burst")
			f.BurstAfterRunSource = rules.Cite("provisioned-budget", "burst-after-run")
		}
		if f.Replay != nil {
			f.ReplaySource = r.replaySource()
		}
	}
	if rep.Replay != nil {
		rep.ReplaySource = r.replaySource()
	}
	for i, g := range rep.Growth {
		if g.Limit > 0 && g.SecondsToLimit > 0 {
			limit := "item-size"
			if g.Kind == "collection" {
				limit = "lsi-collection"
			}
			rep.Growth[i].Source = rules.Cite(limit, "growth-extrapolation")
		}
	}
	rep.Cost.UtilizationSource = rules.Cite("provisioned-utilisation")
}

// partitionsRule is the rule that gives the partition count of the
// run's table and GSIs.
func (r *run) partitionsRule() string { return PartitionsRule(r.provisioned()) }

// PartitionsRule is the id of the rule that gives the partition count of
// a provisioned or an on-demand table and its GSIs.
func PartitionsRule(provisioned bool) string {
	if provisioned {
		return "partitions-provisioned"
	}
	return "partitions-on-demand"
}

// placedSource is the Source of the rate at which a partition, with every
// key the run placed on it, reaches its limit.
func (r *run) placedSource() *rules.Source {
	return rules.Cite("partition-reads", "partition-writes", r.partitionsRule(), "placement", "hot-keys", "light-keys")
}

// budgetSource is the Source of the rate at which a whole table or GSI
// reaches its own limit: its provisioned throughput, or the on-demand
// table quota or the maximum throughput it was given.
func (r *run) budgetSource() *rules.Source {
	switch {
	case r.provisioned():
		return rules.Cite("provisioned-budget")
	case r.MaxReads > 0 || r.MaxWrites > 0:
		return rules.Cite("quota-reads", "quota-writes", "max-on-demand", "max-no-burst")
	}
	return rules.Cite("quota-reads", "quota-writes")
}

// replaySource is the Source of what the throughput engine refuses when
// it replays the run's hot keys (isolating as the emulator does: replay.go).
func (r *run) replaySource() *rules.Source {
	s := rules.Merged(r.placedSource(), rules.Cite("bucket-depth", "split-for-heat"), r.budgetSource())
	if !r.provisioned() {
		s = rules.Merged(s, rules.Cite("warm-reads", "warm-writes", "warm-combination", "growth-window", "peak-consumed", "partition-split"))
	}
	return s
}
