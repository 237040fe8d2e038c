package emulate

import "github.com/ddbharness/ddbharness/bench/capacity"

// A denied call is priced at its own size: what predict.go priced from its
// request before it was decided (the item it names as the caller's shadow
// holds it). A call whose size was not known then (a Query or a Scan,
// whose items the shadow does not list, or a call without a shadow) is
// priced at what a call on the value lately consumed (the emulator's
// running estimate, approximate), and counted unsized, without units, when
// no call on the value was served yet.

// deny is d with one more call denied on side, of units (0: unsized),
// priced at the emulator's estimate when not exact.
func deny(d capacity.Denial, side int, units float64, exact bool) capacity.Denial {
	if units > 0 && !exact {
		d.Estimated++
	}
	if side == read {
		d.Reads++
		if units > 0 {
			d.RCU += units
		} else {
			d.UnsizedReads++
		}
		return d
	}
	d.Writes++
	if units > 0 {
		d.WCU += units
	} else {
		d.UnsizedWrites++
	}
	return d
}

// demand is what a call would consume on tc of space s: its own price
// when known before the call (exact), else the emulator's estimate for the
// value (0: unknown). Call with e.mu held.
func (e *Emulator) demand(s *space, tc touch) (units float64, exact bool) {
	if tc.units > 0 {
		return tc.units, true
	}
	return e.estimate(s, tc), false
}

// Inform gives m, the capacity model of e's run, what e measured beside
// the ledger: the calls it denied (where, when and at what size) and where
// it placed each value. Bench and the specs wire a model to its emulator
// by it alike.
func (e *Emulator) Inform(m *capacity.Model) {
	m.Denied, m.DeniedAt, m.DeniedKeys, m.Placed = e.Denied, e.DeniedAt, e.DeniedAll, e.Placed
}
