package capacity

import (
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// TargetName names a target for people: the model's advice
// (Limit.Change) and the findings name targets alike.
func TargetName(t string) string {
	switch t {
	case designs.MainTable:
		return "the table"
	case pricing.WholeCall:
		return "the whole call"
	}
	return "index " + t
}
