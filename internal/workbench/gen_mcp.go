package workbench

import (
	"math"
	"slices"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

func (d design) hasModelPatterns() bool {
	return slices.ContainsFunc(d.Patterns, func(p *shape.Pattern) bool { return p.MCP != nil })
}

// mcpPattern is p as package mcp writes its function and spec.
func mcpPattern(p *shape.Pattern) mcp.Pattern {
	return mcp.Pattern{ID: p.ID, Name: p.Name, Go: p.Go, Op: p.Op, Call: p.MCP, Params: p.Params, Result: p.Result}
}

// declaredMix is the default scenario's mix when the model declares its
// traffic: each generated pattern with a rate, weighted by its share of
// the sum in thousandths (at least 1), and that sum, the declared peak.
// A pattern with a rate that was not generated cannot be called, and is
// left out (its note says so). Without rates, nil and 0.
func (d design) declaredMix() ([]scaffold.Step, float64) {
	peak := 0.0
	for _, p := range d.Patterns {
		if p.Rate > 0 && p.MCP != nil {
			peak += p.Rate
		}
	}
	var mix []scaffold.Step
	for _, p := range d.Patterns {
		if p.Rate > 0 && p.MCP != nil {
			mix = append(mix, scaffold.Step{Pattern: p.Go, Weight: max(1, int(math.Round(1000*p.Rate/peak))), Model: true})
		}
	}
	return mix, peak
}
