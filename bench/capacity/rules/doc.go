// Package rules is the rules table of the capacity model: every rule and
// number it applies (All), each with what it rests on (documented by an
// AWS page, measured on real DynamoDB by a public capture, or inferred
// where the public record is silent) and its source; the model's own
// parameters and the prices it applies, each the value of a row; and what
// a figure of a report rests on (Source, from Cite), which the model
// (bench/capacity) gives each figure and its findings
// (bench/capacity/findings) mark where the figure appears.
package rules
