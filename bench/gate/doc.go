// Package gate turns a bench run into pass or fail: it measures the
// figures thresholds name (package threshold) on a run's Outcome, keeps
// each default scenario's deterministic figures per pattern in a
// baseline file the repository commits (units per call, cost per million,
// bytes grown per call: computed from item sizes by AWS's rules), checks a
// run against it, and compares two report folders side by side.
// ExampleCompare (example_test.go) shows two runs compared as report
// compare prints them, and the --fail-on rule they breach.
package gate
