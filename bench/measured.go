package bench

import (
	"github.com/ddbharness/ddbharness/bench/capacity/findings"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/workload"
)

// Measured is a measured phase's calls, however they came: the engine's
// run of a scenario (RunLimited), or the calls clients made through the
// endpoint (package endpoint). NewOutcome turns either into the Outcome a
// report is written from.
type Measured struct {
	// Outcome is the engine's results and metrics of the calls.
	Outcome engine.Outcome
	// Scenario gives the capacity model the schema and what the run
	// declares beside its calls: its peak, holds and mix. The endpoint's
	// is a design with the table's schema and no mix.
	Scenario workload.Scenario
	// Limits are the run's, settled: a scale above 0 when on
	// (RunLimited settles them; the endpoint takes its emulator's).
	Limits Limits
	// Ledger is what the calls were charged (nil: nothing to model), and
	// Inputs the figures the model takes beside it.
	Ledger *ledger.Ledger
	Inputs ModelInputs
	// Emulator is the limits emulator the calls went through (nil: limits
	// off): the model is configured as it was, and keeps what it measured.
	Emulator *emulate.Emulator
	// Clients says the calls were clients' own, served through the
	// endpoint (local --limits): their pace, keys and retries are the
	// clients', not the engine's.
	Clients bool
}

// NewOutcome is the outcome of the measured calls m: the engine's, under
// m's limits, and, when m has calls charged in a ledger, the capacity
// model's report on them with what the emulator measured.
func NewOutcome(m Measured) Outcome {
	res := Outcome{Outcome: m.Outcome, Limits: m.Limits, Clients: m.Clients}
	if m.Ledger == nil || m.Inputs.Requests == 0 {
		return res
	}
	res.Ledger, res.Inputs = m.Ledger, m.Inputs
	model := modelOf(m.Scenario, m.Inputs, m.Outcome.TargetRate, m.Limits)
	if m.Emulator != nil {
		// The emulator's settings are the run's (settingsOf), or, for the
		// endpoint, each table's as its creation asked.
		model.Settings = m.Emulator.Settings()
	}
	res.measure(&model, m.Emulator, m.Inputs.Requests, m.Inputs.Span)
	if m.Emulator != nil {
		res.Throttling.ClientRetries = m.Clients
		if res.Saturated != nil {
			heldByBackoff(res.Saturated, res.Outcome, res.Throttling.Retries, m.Emulator.BackoffHeld)
		}
	}
	res.Capacity = findings.Analyze(model, m.Ledger)
	return res
}
