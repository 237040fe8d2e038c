package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
)

// mark matches a figure's mark as the reports write it.
var markRE = regexp.MustCompile(`\[(documented|measured|inferred): ([a-z0-9, -]+)\]`)

// Every mark in the headline, summary.md and metrics.json's throttling
// sources names rows of the rules table with the basis it gives, and the
// forecasts of the emulated section, the hot keys' throttle rates, the
// growth and the provisioned utilisation carry one.
func TestMarksNameRowsOfTheRulesTable(t *testing.T) {
	bases := map[string]string{}
	for _, l := range rules.All() {
		bases[l.ID] = l.Basis
	}
	for name, out := range map[string]bench.Outcome{"sample": sample(), "throttled": throttledSample()} {
		t.Run(name, func(t *testing.T) {
			f := files(t, out)
			text := f[SummaryFile] + "\n" + Headline(out)
			marks := markRE.FindAllStringSubmatch(text, -1)
			for _, m := range marks {
				for _, id := range strings.Split(m[2], ", ") {
					if basis, ok := bases[id]; !ok || basis != m[1] {
						t.Errorf("mark %s: rule %q is %q in the rules table", m[0], id, basis)
					}
				}
			}
			for _, want := range []string{
				"\"Throttles at\" is the request rate of this mix at which the key's partition, with every key this run placed there, reaches",
				"at 70% utilisation [inferred: provisioned-utilisation]",
				"The times to a limit are a forecast: the bytes this run added a second, kept up until the limit [inferred: growth-extrapolation].",
			} {
				if !strings.Contains(f[SummaryFile], want) {
					t.Errorf("summary.md lacks %q", want)
				}
			}
			if out.Throttling == nil {
				return
			}
			contains(t, SummaryFile, f[SummaryFile],
				"both forecasts rest on where the emulator placed the keys [inferred: partitions-on-demand, placement, throttled-share].",
				"after its partition stayed at 80% or more of a limit for 5 min (split for heat) [inferred: split-for-heat].")
			m := metricsOf(t, f[MetricsFile])
			src, _ := m["throttling_sources"].(map[string]any)
			rate, _ := src["partitions[].forecast_rate"].(map[string]any)
			if rate["basis"] != "inferred" || !strings.Contains(strings.Join(strs(rate["rules"]), ","), "placement") {
				t.Errorf("metrics.json: throttling_sources %v, want the forecast rate inferred from the placement", m["throttling_sources"])
			}
		})
	}
}

// strs is a JSON array of strings.
func strs(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}
