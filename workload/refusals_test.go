package workload_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// scored is a scenario of two patterns whose refusals a case marks.
func scored(asErrors ...designs.PatternID) workload.Scenario {
	d := designs.Design{Name: "scores", Schema: designs.Schema{PK: "PK"}, Patterns: []designs.Pattern{
		{ID: "AP-01", Name: "submit score", Op: designs.UpdateItem, Index: designs.MainTable},
		{ID: "AP-02", Name: "top scores", Op: designs.Query, Index: designs.MainTable},
		{ID: "AP-03", Name: "reset", Op: designs.DeleteItem, Index: designs.MainTable}}}
	return workload.Scenario{Name: "scores/day", Design: d, Pool: 1, Pacer: vegeta.ConstantPacer{Freq: 1, Per: time.Second}, Duration: time.Second,
		Mix:              []workload.Step{{Pattern: "AP-01", Weight: 3}, {Pattern: "AP-02", Weight: 1}},
		Driver:           func(designs.DB, string, int64) workload.Driver { return nil },
		RefusalsAsErrors: asErrors}
}

func TestRefusalsAsErrorsNamesPatternsOfTheMix(t *testing.T) {
	for _, c := range []struct {
		asErrors []designs.PatternID
		problem  string // empty: valid
	}{
		{nil, ""},
		{[]designs.PatternID{"AP-01"}, ""},
		{[]designs.PatternID{workload.AllPatterns}, ""},
		{[]designs.PatternID{"AP-03"}, "RefusalsAsErrors names AP-03, which is not in the mix"},
		{[]designs.PatternID{"AP-09"}, "RefusalsAsErrors names AP-09, which is not in the mix"},
		{[]designs.PatternID{"AP-01", "AP-01"}, "RefusalsAsErrors names AP-01 twice"},
		{[]designs.PatternID{"AP-01", workload.AllPatterns}, `"*" already names every pattern`},
	} {
		err := scored(c.asErrors...).Validate()
		switch {
		case c.problem == "" && err != nil:
			t.Errorf("RefusalsAsErrors %v: %v, want valid", c.asErrors, err)
		case c.problem != "" && (err == nil || !strings.Contains(err.Error(), c.problem) || !errors.Is(err, designs.ErrInvalidInput)):
			t.Errorf("RefusalsAsErrors %v: %v, want invalid input saying %q", c.asErrors, err, c.problem)
		}
	}
}

func TestRefusalIsError(t *testing.T) {
	for _, c := range []struct {
		asErrors []designs.PatternID
		ap01     bool
		ap02     bool
	}{
		{nil, false, false},
		{[]designs.PatternID{"AP-02"}, false, true},
		{[]designs.PatternID{workload.AllPatterns}, true, true},
	} {
		sc := scored(c.asErrors...)
		if got1, got2 := sc.RefusalIsError("AP-01"), sc.RefusalIsError("AP-02"); got1 != c.ap01 || got2 != c.ap02 {
			t.Errorf("RefusalsAsErrors %v: AP-01 %v, AP-02 %v; want %v and %v", c.asErrors, got1, got2, c.ap01, c.ap02)
		}
	}
}
