// Package threshold is the expression language of bench's pass/fail
// gates, read as a k6 user reads thresholds: a figure of the run, an
// optional pattern, a comparison and a value with its unit.
//
//	p99(AP-03) < 20ms      latency percentile (p50, p90, p95, p99), avg or max
//	errors < 1%            failed calls, of the mix or of one pattern; refusals are not errors
//	refused(AP-02) < 30%   calls the design refused: a condition failed, a rule said no, a key taken, an item not stored
//	throttled < 5%         calls that ended throttled, after the SDK's retries
//	conflicts(AP-10) < 1%  calls a transaction conflict cancelled
//	wcu(AP-05) <= 4        write units per call (rcu: read units)
//	cost <= $1.20/M        US dollars per million calls
//	headroom >= 3x         first-throttle forecast rate ÷ the target rate
//
// A trailing "abort" stops the bench once the threshold is breached: a
// figure of the calls themselves (latency, errors, refused, throttled) is checked
// while the run goes and ends its window (gate.Live); the others, once
// the run is modelled, stop the scenarios after it. The package parses,
// prints and compares; bench/gate measures the figures on a run. The
// package Example (example_test.go) parses two thresholds, evaluates them
// on a run's figures and prints the breach as bench does.
package threshold
