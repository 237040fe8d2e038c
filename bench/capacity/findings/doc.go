// Package findings words a capacity report for people: one sentence per
// finding (the first limit and those after it, the hot keys, the ceiling,
// the warm throughput, the forecast and its replay, growth, cost, filters,
// the test bed's disagreements and the demand put back), each figure in it
// either the run's own or marked with what it rests on.
//
// Package capacity computes the numbers and their sources; this package
// only says them. Each sentence is written through a claim, which keeps
// what breaks that rule (a figure in the words, a figure without a
// source, a rule the table lacks) for the specs.
package findings
