package report

import (
	"bytes"
	"strings"
	"testing"
)

// The headline counts the sample's refusals apart from its errors: AP-07's
// three misses and AP-03's taken number are 4 of 60 calls, its one
// ValidationException 1.
func TestHeadlineCountsRefusalsApartFromErrors(t *testing.T) {
	if h := Headline(sample()); !strings.Contains(h, "1.7% errors, 6.7% refused;") {
		t.Errorf("Headline = %q, want 1.7%% errors, 6.7%% refused", h)
	}
	out := sample()
	for i := range out.Patterns {
		out.Patterns[i].Metrics.StatusCodes = map[string]int{"200": int(out.Patterns[i].Metrics.Requests)}
	}
	out.Total.StatusCodes, out.Total.Success = map[string]int{"200": 60}, 1
	if h := Headline(out); strings.Contains(h, "refused") {
		t.Errorf("Headline = %q of a run that refused nothing: want no word of refusals", h)
	}
}

// plot.html draws refusals as a series of their own, not as errors.
func TestPlotDrawsRefusalsApart(t *testing.T) {
	var b bytes.Buffer
	if err := WritePlot(&b, sample()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`"AP-03: REFUSED"`, `"AP-07: REFUSED"`, `"AP-07: ERROR"`} {
		if !strings.Contains(html, want) {
			t.Errorf("plot.html lacks %s", want)
		}
	}
	if strings.Contains(html, `"AP-03: ERROR"`) {
		t.Errorf("plot.html draws AP-03's refusal as an error")
	}
}
