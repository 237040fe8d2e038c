package threshold_test

import (
	"fmt"
	"time"

	"github.com/ddbharness/ddbharness/workload/threshold"
)

// A scenario's thresholds parsed, then evaluated on a run's figures (as
// bench/gate measures them, in the base unit: nanoseconds, a fraction of
// the calls): the p99 held, the errors breached, and the line says so.
func Example() {
	ts, err := threshold.ParseList("p99(AP-03) < 20ms; errors < 1%")
	if err != nil {
		fmt.Println(err)
		return
	}
	measured := []float64{float64(12500 * time.Microsecond), 0.023}
	var rs []threshold.Result
	for i, t := range ts {
		rs = append(rs, t.Evaluate(measured[i]))
		fmt.Println(rs[i].Line())
	}
	fmt.Println("breached:", threshold.Breached(rs))
	// Output:
	// ✓ p99(AP-03) < 20ms: 12.5ms
	// ✗ errors < 1%: 2.3%
	// breached: true
}

// A threshold that cannot be read is refused with what was wanted where;
// one that can is printed as Parse reads it back.
func ExampleParse() {
	_, err := threshold.Parse("p99(AP-03) < 20")
	fmt.Println(err)
	t, _ := threshold.Parse("errors(AP-02)<1% abort")
	fmt.Println(t)
	// Output:
	// threshold "p99(AP-03) < 20": unit "": want a duration like 20ms (ns, us, ms, s) (like p99(AP-03) < 20ms; errors < 1%; wcu(AP-05) <= 4; cost <= $1.20/M; headroom >= 3x)
	// errors(AP-02) < 1% abort
}
