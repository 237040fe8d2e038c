package all

import (
	"slices"

	"github.com/ddbharness/ddbharness/designs"
)

// Find is the design named name.
func Find(name string) (designs.Design, bool) {
	i := slices.IndexFunc(Designs, func(d designs.Design) bool { return d.Name == name })
	if i < 0 {
		return designs.Design{}, false
	}
	return Designs[i], true
}

// Names lists the names of ds, in order.
func Names(ds []designs.Design) []string {
	var names []string
	for _, d := range ds {
		names = append(names, d.Name)
	}
	return names
}
