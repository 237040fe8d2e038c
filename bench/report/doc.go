// Package report writes what a bench run measured into a folder of its
// own: summary.md for people, metrics.json for machines, results.bin in
// vegeta's format (so that `vegeta report` and `vegeta plot` read it),
// plot.html (vegeta's latency plot) and heat.svg (partition heat over
// time), and points reports/latest at the newest run.
package report
