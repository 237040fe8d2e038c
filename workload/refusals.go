package workload

import (
	"fmt"
	"slices"

	"github.com/ddbharness/ddbharness/designs"
)

// AllPatterns, in Scenario.RefusalsAsErrors, names every pattern of the
// mix.
const AllPatterns designs.PatternID = "*"

// RefusalIsError reports whether sc counts p's refusals as errors.
func (sc Scenario) RefusalIsError(p designs.PatternID) bool {
	return slices.Contains(sc.RefusalsAsErrors, p) || slices.Contains(sc.RefusalsAsErrors, AllPatterns)
}

// checkRefusalsAsErrors refuses a RefusalsAsErrors that names a pattern
// the mix does not call, names one twice, or names AllPatterns beside
// others: each would say nothing, or less than it seems to.
func (sc Scenario) checkRefusalsAsErrors() []error {
	var problems []error
	var mix []designs.PatternID
	for _, st := range sc.Mix {
		mix = append(mix, st.Pattern)
	}
	for i, p := range sc.RefusalsAsErrors {
		switch {
		case p == AllPatterns && len(sc.RefusalsAsErrors) > 1:
			problems = append(problems, fmt.Errorf("RefusalsAsErrors %v: %q already names every pattern; give it alone, or list the patterns", sc.RefusalsAsErrors, AllPatterns))
		case p == AllPatterns:
		case slices.Contains(sc.RefusalsAsErrors[:i], p):
			problems = append(problems, fmt.Errorf("RefusalsAsErrors names %s twice: drop one", p))
		case !slices.Contains(mix, p):
			problems = append(problems, fmt.Errorf("RefusalsAsErrors names %s, which is not in the mix: name a pattern of the mix (%v), or %q for all", p, mix, AllPatterns))
		}
	}
	return problems
}
