package capacity

import (
	"encoding/json"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
)

// UnmarshalJSON reads a Report as metrics.json has it, or as files written
// before its rules were named rules had it: limits, the name the run's
// limits go by.
func (r *Report) UnmarshalJSON(b []byte) error {
	type plain Report // without this method
	var v struct {
		plain
		Former []rules.Rule `json:"limits"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Report(v.plain)
	if r.Rules == nil {
		r.Rules = v.Former
	}
	return nil
}
