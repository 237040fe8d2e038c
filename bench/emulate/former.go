package emulate

import "encoding/json"

// UnmarshalJSON reads a Throttling as metrics.json and shard.json have
// it, or as files written before its limits' scale was spelt limits_scale,
// as in the capacity report, had it: scale.
func (t *Throttling) UnmarshalJSON(b []byte) error {
	type plain Throttling // without this method
	var v struct {
		plain
		Former *float64 `json:"scale"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Throttling(v.plain)
	if v.Former != nil && t.Scale == 0 {
		t.Scale = *v.Former
	}
	return nil
}
