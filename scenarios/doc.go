// Package scenarios holds the load scenarios of every design: weighted mixes
// of the design's catalog patterns, the keys they draw, the rate over time,
// and a Driver that seeds the table through the fixtures and calls the
// design's own pattern functions. One file per design; All lists them.
package scenarios
