// Package workload says what a load scenario is: a weighted mix of one
// design's access patterns, the keys each draws, how the rate moves over
// time, and the Driver that seeds the design's table and calls its pattern
// functions. Scenarios are plain values (package scenarios lists them); the
// engine that paces them is package bench/engine, and fixtures and lint
// seed tables through the same drivers without any of bench.
package workload
