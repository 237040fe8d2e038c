package threshold

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Threshold
	}{
		{"p99(AP-03) < 20ms", Threshold{Metric: "p99", Pattern: "AP-03", Op: "<", Value: 20, Unit: "ms"}},
		{"  P50 <= 1.5s ", Threshold{Metric: "p50", Op: "<=", Value: 1.5, Unit: "s"}},
		{"max(AP-01)<250µs", Threshold{Metric: "max", Pattern: "AP-01", Op: "<", Value: 250, Unit: "µs"}},
		{"errors < 1%", Threshold{Metric: "errors", Op: "<", Value: 1, Unit: "%"}},
		{"errors < 1% abort", Threshold{Metric: "errors", Op: "<", Value: 1, Unit: "%", Abort: true}},
		{"throttled < 5%", Threshold{Metric: "throttled", Op: "<", Value: 5, Unit: "%"}},
		{"refused(AP-02) < 30%", Threshold{Metric: "refused", Pattern: "AP-02", Op: "<", Value: 30, Unit: "%"}},
		{"refused <= 25% abort", Threshold{Metric: "refused", Op: "<=", Value: 25, Unit: "%", Abort: true}},
		{"wcu(AP-05) <= 4", Threshold{Metric: "wcu", Pattern: "AP-05", Op: "<=", Value: 4}},
		{"rcu( AP-07 ) <= 2.5", Threshold{Metric: "rcu", Pattern: "AP-07", Op: "<=", Value: 2.5}},
		{"cost <= $1.20/M", Threshold{Metric: "cost", Op: "<=", Value: 1.2, Unit: "$/M"}},
		{"headroom >= 3x", Threshold{Metric: "headroom", Op: ">=", Value: 3, Unit: "x"}},
		{"conflicts(AP-10) < 1%", Threshold{Metric: "conflicts", Pattern: "AP-10", Op: "<", Value: 1, Unit: "%"}},
		{"wcu == 0", Threshold{Metric: "wcu", Op: "==", Value: 0}},
	} {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ in, says string }{
		{"", "no metric"},
		{"p98 < 20ms", `unknown metric "p98"`},
		{"p99 20ms", "no comparison"},
		{"p99 < ms", "no number"},
		{"p99 < 20", `unit ""`},
		{"p99 < 20m", `unit "m"`},
		{"errors < 1", "share of calls"},
		{"wcu(AP-05) <= 4ms", `unit "ms"`},
		{"cost <= 1.20", "dollars per million"},
		{"headroom >= 3", "factor"},
		{"headroom(AP-01) >= 3x", "drop the pattern"},
		{"p99(AP-03 < 20ms", "no )"},
		{"p99() < 20ms", "pattern"},
		{"errors < 1% stop", `"stop" after the value`},
		{"errors < 1%%", "left over"},
		{"wcu <= $4", "$ is for cost"},
		{"errors < 101%", "at most 100%"},
		{"throttled <= 1000%", "at most 100%"},
		{"refused == 150%", "at most 100%"},
		{"errors <= 100%", "gates nothing"},
		{"errors >= 0%", "gates nothing"},
		{"wcu(AP-05) >= 0", "gates nothing"},
		{"headroom >= 0x", "gates nothing"},
		{"errors < -1%", "no number"},
	} {
		_, err := Parse(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", tc.in, err, tc.says)
		}
	}
}

func TestParseList(t *testing.T) {
	ts, err := ParseList("p99(AP-03) < 20ms; errors < 1%;;")
	if err != nil || len(ts) != 2 || ts[1].Metric != "errors" {
		t.Fatalf("ParseList = %+v, %v", ts, err)
	}
	if _, err := ParseList("p99 < 20ms; bogus"); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("ParseList with a bad part = %v, want it named", err)
	}
}

func TestEvaluate(t *testing.T) {
	for _, tc := range []struct {
		in       string
		measured float64 // in the base unit
		pass     bool
		text     string
	}{
		{"p99 < 20ms", 19.5e6, true, "19.5ms"},
		{"p99 < 20ms", 20e6, false, "20ms"},
		{"p99 <= 20ms", 20e6, true, "20ms"},
		{"errors < 1%", 0.012, false, "1.2%"},
		{"wcu(AP-05) <= 4", 4, true, "4"},
		{"cost <= $1.20/M", 1.25, false, "$1.25/M"},
		{"headroom >= 3x", 3.4, true, "3.4x"},
		{"headroom > 3x", 3, false, "3x"},
	} {
		th, err := Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		r := th.Evaluate(tc.measured)
		if r.Pass != tc.pass || r.Text != tc.text {
			t.Errorf("%s on %v = pass %v %q, want %v %q", tc.in, tc.measured, r.Pass, r.Text, tc.pass, tc.text)
		}
	}
}

func TestUnmeasuredFails(t *testing.T) {
	th, _ := Parse("p99(AP-09) < 1s")
	if r := th.Unmeasured("AP-09 made no call"); r.Pass || !Breached([]Result{r}) {
		t.Fatalf("an unmeasured threshold passed: %+v", r)
	}
}

// FuzzParse: whatever the text, Parse never panics, and a threshold it
// reads prints back as text it reads as the same threshold.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"p99(AP-03) < 20ms", "errors < 1% abort", "cost <= $1.20/M", "headroom >= 3x",
		"rcu(AP-07) <= 2.5", "max<250µs", "wcu == 0", "p99 < 1e5ms", "conflicts(a\nb) < 1%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(th.String())
		if err != nil {
			t.Fatalf("%q parsed as %+v, whose text %q does not parse: %v", s, th, th.String(), err)
		}
		if again != th {
			t.Fatalf("%q parsed as %+v, whose text %q parses as %+v", s, th, th.String(), again)
		}
	})
}
