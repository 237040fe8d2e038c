package meter

import (
	"github.com/ddbharness/ddbharness/ddbitem"
)

// order is what the shadow knows of one item, and the one rule by which it
// orders the answers of calls on it. It is pure state: the shadow holds
// the lock and numbers every event (a write sent, a write answered) from
// one counter, which stands in for time, so the rule is tested without a
// clock.
//
// Answers arrive in an order that is not always the order DynamoDB applied
// the writes; only writes in flight at the same time can be reordered so.
// While one write at a time is in flight (a quiet episode) every answer is
// current. When two are in flight at once (a crowded episode), the answers
// are held as moves and, once the last is answered, put back in order:
// moves whose images DynamoDB returned (the old image of a single-item
// write, the item a failed condition saw) chain, and the chain's end is the
// item as it stands. A crowded episode with a move whose old image the
// client had to assume (a transaction returns none), or a write whose
// outcome is unknown (an error other than a failed condition), or moves
// with no single end, leaves the item unsure, as does such a write alone
// on an unsure item. An unsure item is settled by the next image DynamoDB
// returns of it, or by a consistent read that no write of it overlapped
// (the pattern's own, or the shadow's after the episode).
type order struct {
	image    ddbitem.Item // the latest image (nil: no item)
	inflight int          // writes sent and not yet answered
	last     uint64       // the number of the latest event of a write of the item
	crowded  bool         // this episode had two writes in flight at once
	inexact  bool         // this episode had a move the client assumed, or lost
	unsure   bool         // image may not be what DynamoDB holds
	moves    []move       // this crowded episode's moves DynamoDB returned
}

// move is one write whose images DynamoDB returned.
type move struct{ before, after ddbitem.Item }

// begin records a write sent, event number seq.
func (o *order) begin(seq uint64) {
	o.inflight++
	o.last = seq
	if o.inflight > 1 {
		o.crowded = true
	}
}

// known records, as event seq, the answer of a write whose image before
// DynamoDB returned; after is what it left. It reports whether the item is
// left unsure.
func (o *order) known(seq uint64, before, after ddbitem.Item) bool {
	o.image = after
	if o.crowded {
		o.moves = append(o.moves, move{before, after})
	}
	return o.end(seq)
}

// saw records the item as a failed condition saw it: nothing changed, and
// the item stood so while the write was in flight.
func (o *order) saw(seq uint64, item ddbitem.Item) bool { return o.known(seq, item, item) }

// assumed records the answer of a write whose image before DynamoDB did
// not return, applied to the latest image: after(before) is what it left,
// ok false when the client could not compute it (the item then stays as it
// was, unsure). It returns both images and whether they are exact.
func (o *order) assumed(seq uint64, after func(before ddbitem.Item) (ddbitem.Item, bool)) (before, now ddbitem.Item, exact, unsure bool) {
	before = o.image
	now, ok := after(before)
	exact = ok && !o.crowded && !o.unsure
	if !ok {
		now = before
	}
	o.image = now
	o.inexact = o.inexact || !exact
	return before, now, exact, o.end(seq)
}

// lost records a write whose outcome is unknown: it failed, but not on its
// condition, so it may or may not have been applied.
func (o *order) lost(seq uint64) bool {
	o.inexact = true
	return o.end(seq)
}

// end closes one write; when it was the last in flight, the episode is
// judged. It reports whether the item is left unsure.
func (o *order) end(seq uint64) bool {
	o.last = seq
	o.inflight--
	if o.inflight > 0 {
		return false
	}
	switch {
	case o.inexact:
		o.unsure = true
	case !o.crowded:
		o.unsure = false
	default:
		end, ok := chainEnd(o.moves)
		o.image, o.unsure = end, !ok
		if !ok {
			o.image = o.moves[len(o.moves)-1].after // the latest answer, until settled
		}
	}
	o.crowded, o.inexact, o.moves = false, false, nil
	return o.unsure
}

// chainEnd is the image a crowded episode's moves end on: the after image
// of the changes that no other change starts from, when they agree. Moves
// that change nothing (failed conditions) only show where the chain
// passed; with no change at all they must agree among themselves.
func chainEnd(moves []move) (ddbitem.Item, bool) {
	var changes, stills []move
	for _, m := range moves {
		if ddbitem.Equal(m.before, m.after) {
			stills = append(stills, m)
		} else {
			changes = append(changes, m)
		}
	}
	if len(changes) == 0 {
		changes = stills
	}
	var end ddbitem.Item
	ends := 0
	for i, m := range changes {
		continued := false
		for j, n := range changes {
			if i != j && ddbitem.Equal(n.before, m.after) && !ddbitem.Equal(n.before, n.after) {
				continued = true
				break
			}
		}
		if continued || (ends > 0 && ddbitem.Equal(end, m.after)) {
			continue
		}
		end, ends = m.after, ends+1
	}
	return end, ends == 1
}

// read records what a consistent read returned of the item (nil: no item),
// sent when the latest event was number sent. The read is current when
// every write of the item had been answered before it was sent, and none
// has been sent since; then it settles the item.
func (o *order) read(item ddbitem.Item, sent uint64) {
	if o.inflight == 0 && o.last <= sent {
		o.image, o.unsure = item, false
	}
}
