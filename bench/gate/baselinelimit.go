package gate

import (
	"fmt"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/report"
)

// BaselineLimit is a scenario's first limit as the baseline recorded it:
// the limit in one phrase (kind, where, driver, rate, cause) and its rate
// in requests per second of the mix. The rate is a forecast of real
// DynamoDB from the calls' items alone, so it does not follow the machine
// that ran them; a run whose first limit comes more than Tolerance sooner
// has regressed, whatever limit it names.
type BaselineLimit struct {
	Limit string  `json:"limit"`
	Rate  float64 `json:"rate"`
}

// firstLimitFigure names the first limit's rate among a Change's figures.
const firstLimitFigure = "first limit (requests/s)"

// baselineLimit is out's first limit for the baseline (false: none).
func baselineLimit(out bench.Outcome) (BaselineLimit, bool) {
	l := out.Capacity.FirstLimit
	if l == nil || l.Rate <= 0 {
		return BaselineLimit{}, false
	}
	return BaselineLimit{Limit: report.LimitBrief(*l), Rate: l.Rate}, true
}

// compareLimit is the change of out's first limit from was, if its rate
// moved past the tolerance (sooner: a regression; later: an improvement),
// or if the run reaches none where the baseline did.
func compareLimit(was BaselineLimit, out bench.Outcome) (Change, bool) {
	now, ok := baselineLimit(out)
	c := Change{Scenario: out.Scenario, Figure: firstLimitFigure, Base: was.Rate, Now: now.Rate, Limits: [2]string{was.Limit, now.Limit}}
	if l := out.Capacity.FirstLimit; l != nil {
		c.Pattern = l.Pattern
	}
	if !ok {
		c.Limits[1] = "none reached"
		return c, true
	}
	return c, moved(was.Rate, now.Rate, 0)
}

// limitString is a first-limit Change in words.
func (c Change) limitString() string {
	return fmt.Sprintf("%s: first limit at %s requests/s → %s (%+.1f%%): was %s; now %s", c.Scenario,
		num(c.Base), num(c.Now), 100*(c.Now-c.Base)/max(c.Base, 1e-12), c.Limits[0], c.Limits[1])
}
