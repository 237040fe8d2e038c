package findings

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// representative is the report of runs that fill every part of a Report:
// shardMix on demand and provisioned (burst), and writes spread over 100
// keys (ten hot keys on a new table's four partitions, the warm ceiling
// and its growth), with and without a declared warm throughput.
func representative() map[string]capacity.Report {
	var spread []pricing.Observation
	for i := range 100 {
		spread = append(spread, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i), "A", 900)}}})
	}
	prov := schema
	prov.Billing, prov.RCU, prov.WCU = types.BillingModeProvisioned, 100, 50
	return map[string]capacity.Report{
		"shard mix":               Analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}, ledgerOf(shardMix())),
		"shard mix, provisioned":  Analyze(capacity.Model{Schema: prov, Duration: 10 * time.Second, TargetRate: 5000}, ledgerOf(shardMix())),
		"spread writes":           analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 10000}, spread...),
		"spread writes, declared": analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 10000, Settings: throughput.Settings{WarmWrites: 20000}}, spread...),
	}
}

// Every figure of a finding is the run's own or carries what it rests on,
// marked where it appears: the claims that write the findings keep what
// breaks that, and none of a representative run's does.
func TestEveryFigureOfTheFindingsSaysWhatItRestsOn(t *testing.T) {
	for run, r := range representative() {
		t.Run(run, func(t *testing.T) {
			out, bad := findings(r)
			if len(out) < 4 {
				t.Errorf("%d findings, want the hot keys, the ceiling, the cost and more: %q", len(out), out)
			}
			for _, b := range bad {
				t.Errorf("finding: %s", b)
			}
			for _, f := range out {
				if strings.Contains(f, "on real DynamoDB") && strings.Contains(f, "[inferred") && !strings.Contains(f, "(on real DynamoDB)") {
					t.Errorf("finding calls an inferred figure real DynamoDB's: %s", f)
				}
			}
		})
	}
}

// The claim's checks can fail: words with a figure in them, a number
// passed as is, and a figure with no source.
func TestClaimKeepsFiguresWithoutASource(t *testing.T) {
	var c claim
	c.say("throttles at %s requests/s (%s), after %s s", cited(rules.Cite("placement"), "1,000"), name("K1"), ran("3")).done()
	if len(c.bad) != 0 {
		t.Errorf("a cited figure, a name and the run's own figure: %q", c.bad)
	}
	for _, tc := range []struct {
		name     string
		say      func(c *claim)
		inferred bool // the figure reads as inferred all the same
	}{
		{"a figure in the words", func(c *claim) { c.say("reaches 1,000 requests/s") }, false},
		{"a number as is", func(c *claim) { c.say("reaches %v requests/s", 1000.0) }, false},
		{"a figure without a source", func(c *claim) { c.say("reaches %s requests/s", cited(nil, "1,000")) }, true},
		{"a rule the table lacks", func(c *claim) { c.say("reaches %s requests/s", cited(rules.Cite("no-such-rule"), "1,000")) }, true},
	} {
		var c claim
		tc.say(&c)
		s := c.done()
		if len(c.bad) != 1 || tc.inferred != strings.Contains(s, "[inferred") {
			t.Errorf("%s: %q, faults %q; want one fault, an inferred mark %v", tc.name, s, c.bad, tc.inferred)
		}
	}
}

// Every rules.Source of a report cites rows of the rules table, with the
// weakest of their bases: a figure on a partition (placed, with the hot
// keys) is inferred, a table's quota documented, growth extrapolated.
func TestReportSourcesCiteTheRulesTable(t *testing.T) {
	for run, r := range representative() {
		t.Run(run, func(t *testing.T) {
			n := 0
			eachSource(reflect.ValueOf(r), "report", func(path string, s *rules.Source) {
				n++
				for _, id := range s.Rules {
					if !rules.Has(id) {
						t.Errorf("%s cites %q, which the rules table lacks", path, id)
					}
				}
				if want := rules.Cite(s.Rules...).Basis; s.Basis != want || len(s.Rules) == 0 {
					t.Errorf("%s: basis %q of %q, want %q", path, s.Basis, s.Rules, want)
				}
			})
			if n < 4 {
				t.Errorf("%d sources in the report, want one for every figure beyond the run's own", n)
			}
			if c := r.Ceiling; c != nil && c.Key != "" && (c.Source.Documented() || !strings.Contains(c.Source.Mark(), "placement")) {
				t.Errorf("Ceiling on partition key %q: source %+v, want inferred from the placement", c.Key, c.Source)
			}
			for _, g := range r.Growth {
				if g.SecondsToLimit > 0 && !strings.Contains(g.Source.Mark(), "growth-extrapolation") {
					t.Errorf("Growth of %q: source %+v, want the extrapolation named", g.Key, g.Source)
				}
			}
			if r.Cost.UtilizationSource.Documented() {
				t.Errorf("Cost.UtilizationSource = %+v, want inferred", r.Cost.UtilizationSource)
			}
		})
	}
}

// eachSource calls f with every non-nil *rules.Source under v.
func eachSource(v reflect.Value, path string, f func(string, *rules.Source)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if s, ok := v.Interface().(*rules.Source); ok {
			f(path, s)
			return
		}
		eachSource(v.Elem(), path, f)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				eachSource(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			eachSource(v.Index(i), fmt.Sprintf("%s[%d]", path, i), f)
		}
	}
}

// Local's disagreements with AWS's rules are for the model, not for a
// designer looking for the first limit: the findings give them one line at
// most, how many and where to look, and none when Local agreed.
func TestFindingsGiveLocalsDisagreementsOneLine(t *testing.T) {
	r := representative()["shard mix"]
	differs := func(p designs.PatternID, differing, calls int64) ledger.Disagreement {
		return ledger.Disagreement{PatternOp: ledger.PatternOp{Pattern: p, Op: designs.TransactWriteItems}, Target: designs.MainTable, Calls: calls, Differing: differing,
			Units: 12, LocalUnits: 4, ExampleUnits: 12, ExampleLocal: 4}
	}
	var about []string
	count := func(r capacity.Report) int {
		about = about[:0]
		for _, f := range Of(r) {
			if strings.Contains(f, "test bed reported") || strings.Contains(f, "DynamoDB Local reported") {
				about = append(about, f)
			}
		}
		return len(about)
	}
	r.Disagreements = nil
	if n := count(r); n != 0 {
		t.Errorf("no disagreement, yet the findings say %q", about)
	}
	for i := range 7 {
		r.Disagreements = append(r.Disagreements, differs(designs.PatternID(fmt.Sprintf("AP-%02d", i+1)), 2, 3))
	}
	if n := count(r); n != 1 {
		t.Fatalf("seven disagreements take %d lines of the findings, want one: %q", n, about)
	}
	want := "The consumed capacity the test bed reported differs from AWS's rules for 7 pattern operations on a target (14 of their 21 calls); the report uses AWS's rules throughout, and the appendix at the end of summary.md lists each (disagreements in metrics.json)."
	if about[0] != want {
		t.Errorf("finding %q, want %q", about[0], want)
	}
}
