package gate

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

func row(rows []Row, pattern, figure string) Row {
	for _, r := range rows {
		if r.Pattern == pattern && r.Figure == figure {
			return r
		}
	}
	return Row{}
}

// TestCompare: units and cost compare exactly; a latency change over
// calls that do not differ in distribution is "~" and breaks no rule,
// one that does is a regression.
func TestCompare(t *testing.T) {
	base := Run{Out: run(), Latencies: map[designs.PatternID][]float64{}}
	next := Run{Out: run(), Latencies: map[designs.PatternID][]float64{}}
	next.Out.Capacity.Patterns[1].WCU = 30 // AP-01: 2 → 3 WCU a call
	next.Out.Patterns[0].Metrics.Latencies.P99 = 40 * time.Millisecond
	next.Out.Patterns[1].Metrics.Latencies.P99 = 40 * time.Millisecond
	for i := range 200 {
		v := float64(i)
		base.Latencies["AP-01"] = append(base.Latencies["AP-01"], v)
		next.Latencies["AP-01"] = append(next.Latencies["AP-01"], v+0.5) // the same calls, a hair slower
		base.Latencies["AP-02"] = append(base.Latencies["AP-02"], v)
		next.Latencies["AP-02"] = append(next.Latencies["AP-02"], v*3) // three times slower
	}
	rows := Compare(base, next)
	if r := row(rows, "AP-01", "wcu"); r.Base != 2 || r.New != 3 || r.ChangeText() != "+50.0%" {
		t.Errorf("AP-01 wcu: %+v %s", r, r.ChangeText())
	}
	if r := row(rows, "AP-01", "rcu"); r.ChangeText() != "=" {
		t.Errorf("AP-01 rcu unchanged: %s", r.ChangeText())
	}
	if r := row(rows, "AP-01", "p99"); !strings.HasPrefix(r.ChangeText(), "~") || r.Regression() != 0 {
		t.Errorf("AP-01 p99 on calls alike: %s, regression %v; want ~ and none", r.ChangeText(), r.Regression())
	}
	if r := row(rows, "AP-02", "p99"); r.P > Alpha || math.IsNaN(r.P) {
		t.Errorf("AP-02 p99 on calls three times slower: p = %v", r.P)
	}
	rules, err := ParseFailOn("wcu>0%, p99>20%")
	if err != nil {
		t.Fatal(err)
	}
	bad := Breaches(rows, rules)
	if len(bad) != 2 || !strings.HasPrefix(bad[0], "AP-01 wcu: 2 → 3") || !strings.HasPrefix(bad[1], "AP-02 p99") {
		t.Errorf("breaches %q, want AP-01's wcu and AP-02's p99", bad)
	}
	if r := row(rows, "mix", "headroom"); r.Base != 2.5 || r.Up {
		t.Errorf("mix headroom: %+v", r)
	}
}

func TestParseFailOnRefuses(t *testing.T) {
	for _, s := range []string{"wcu>0", "wcu<0%", "speed>1%", "p99>-5%", "p99>x%"} {
		if _, err := ParseFailOn(s); err == nil || !strings.Contains(err.Error(), "FIGURE>N%") {
			t.Errorf("ParseFailOn(%q) = %v, want refused with the form", s, err)
		}
	}
}
