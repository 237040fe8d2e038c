package gate

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMannWhitney(t *testing.T) {
	// U = 0 of 25: z = (12.5-0.5)/sqrt(25·11/12), p = erfc(z/√2).
	want := math.Erfc(12 / math.Sqrt(25.0*11/12) / math.Sqrt2)
	if p := MannWhitney([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}); math.Abs(p-want) > 1e-12 || math.Abs(p-0.0122) > 1e-4 {
		t.Errorf("separated samples: p = %v, want %v (0.0122)", p, want)
	}
	if p := MannWhitney([]float64{3, 3, 3}, []float64{3, 3}); p != 1 {
		t.Errorf("all tied: p = %v, want 1", p)
	}
	if p := MannWhitney(nil, []float64{1}); p != 1 {
		t.Errorf("an empty sample: p = %v, want 1", p)
	}
	r := rand.New(rand.NewPCG(1, 2))
	same := func(shift float64) ([]float64, []float64) {
		a, b := make([]float64, 500), make([]float64, 500)
		for i := range a {
			a[i], b[i] = r.ExpFloat64(), r.ExpFloat64()+shift
		}
		return a, b
	}
	if p := MannWhitney(same(0)); p < 0.05 {
		t.Errorf("one distribution: p = %v, want above 0.05", p)
	}
	if p := MannWhitney(same(0.5)); p > 1e-6 {
		t.Errorf("shifted by half its mean: p = %v, want far below 0.05", p)
	}
}
