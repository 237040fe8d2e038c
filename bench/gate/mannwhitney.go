package gate

import (
	"math"
	"slices"
)

// MannWhitney is the two-sided p-value of the Mann–Whitney U test that
// samples a and b come from one distribution, by the normal
// approximation with a correction for ties and for continuity: fine for
// the hundreds of calls a pattern makes in a run, not for a handful.
// gonum's stat package has no rank-sum test; the formula is the
// textbook's (Mann and Whitney 1947; ties as in Lehmann's Nonparametrics).
// With either sample empty, or every value tied, it is 1: nothing says
// they differ.
func MannWhitney(a, b []float64) float64 {
	n1, n2 := float64(len(a)), float64(len(b))
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, len(a)+len(b))
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	slices.SortFunc(all, func(x, y obs) int {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	n := n1 + n2
	var r1, ties float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // the mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	u := r1 - n1*(n1+1)/2
	mu := n1 * n2 / 2
	sigma := math.Sqrt(n1 * n2 / 12 * ((n + 1) - ties/(n*(n-1))))
	if sigma == 0 || math.IsNaN(sigma) {
		return 1
	}
	z := max(math.Abs(u-mu)-0.5, 0) / sigma
	return math.Erfc(z / math.Sqrt2)
}
