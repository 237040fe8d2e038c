package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestTheReportSetsTheFirstLimitAgainstTheDeclaredPeak: a run of a
// design whose model declares its peak says, on the terminal and in
// summary.md, the first limit against that peak, whichever kind comes
// first (a partition, the warm throughput, a conflict limit); a run of a design that declares none says
// nothing of it.
func TestTheReportSetsTheFirstLimitAgainstTheDeclaredPeak(t *testing.T) {
	out := sample()
	out.Capacity.DeclaredPeak = 400
	want := "first limit at 571 requests/s against the model's declared peak of 400 (1.4× headroom)"
	if h := Headline(out); !strings.HasSuffix(h, "; "+want) {
		t.Errorf("Headline = %q, want it to end %q", h, want)
	}
	var b bytes.Buffer
	if err := WriteSummary(&b, out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "The design's model declares its traffic: "+want+".") {
		t.Errorf("summary.md does not say %q", want)
	}

	out.Capacity.Warm.Rate = 300
	if h := Headline(out); !strings.HasSuffix(h, "; first limit at 300 requests/s against the model's declared peak of 400 (0.8× headroom)") {
		t.Errorf("Headline with the warm throughput first = %q", h)
	}
	conflict := *out.Capacity.FirstLimit
	conflict.Rate = 200
	out.Capacity.FirstLimit = &conflict
	if h := Headline(out); !strings.HasSuffix(h, "; first limit at 200 requests/s against the model's declared peak of 400 (0.5× headroom)") {
		t.Errorf("Headline with a first limit below every throttle (a conflict limit) = %q", h)
	}
	out.Capacity.Ceiling, out.Capacity.Warm, out.Capacity.FirstLimit = nil, nil, nil
	if h := Headline(out); !strings.HasSuffix(h, "; no limit at any rate against the model's declared peak of 400 requests/s") {
		t.Errorf("Headline with no limit = %q", h)
	}
	if h := Headline(sample()); strings.Contains(h, "declared") {
		t.Errorf("Headline of a design that declares nothing = %q", h)
	}
}
