package ledger

import (
	"sync"

	"github.com/ddbharness/ddbharness/pricing"
)

// Held is one pattern call's calls, priced as they come and recorded in
// the ledger only once the run has counted the pattern call. A pattern call
// the run's drain cuts short is counted in none of the pattern's figures
// (its calls, its latency); were what it consumed before the cut charged,
// the units each call takes (charged over counted) would come out too
// high, by as much as the drain cut.
type Held struct {
	l     *Ledger
	mu    sync.Mutex
	calls []priced
}

// Hold starts holding one pattern call's charges.
func (l *Ledger) Hold() *Held { return &Held{l: l} }

// Observe prices o as Ledger.Observe does and returns its charges (which
// the limits emulator debits at once: DynamoDB consumed them), holding
// them for End.
func (h *Held) Observe(o pricing.Observation) []pricing.Charge {
	p := h.l.price(o)
	h.mu.Lock()
	h.calls = append(h.calls, p)
	h.mu.Unlock()
	return p.charges
}

// End records the held calls when the run counted the pattern call, and
// drops them otherwise.
func (h *Held) End(counted bool) {
	h.mu.Lock()
	calls := h.calls
	h.calls = nil
	h.mu.Unlock()
	if !counted {
		return
	}
	for _, p := range calls {
		h.l.addPriced(p)
	}
}
