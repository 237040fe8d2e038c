package fault

import (
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Set is the rules an endpoint decides calls by, with each rule's counts.
// It is safe for concurrent use.
type Set struct {
	mu    sync.Mutex
	rules []*state
	seed  uint64
}

type state struct {
	Rule
	text    string
	matched int64
	hits    int64
	rng     *rand.Rand
}

// NewSet is the set of rules, in order, whose rate= draws come from seed:
// each rule its own source, so one rule's draws do not depend on another
// rule's traffic.
func NewSet(seed uint64, rules ...Rule) *Set {
	s := &Set{seed: seed}
	for i, r := range rules {
		s.rules = append(s.rules, &state{Rule: r, text: r.String(), rng: rand.New(rand.NewPCG(seed, uint64(i)))})
	}
	return s
}

// Seed is the seed the set's rate= draws come from.
func (s *Set) Seed() uint64 { return s.seed }

// Decision is what a fired rule makes of a call.
type Decision struct {
	// Rule is the index of the rule that fired, in the set's order.
	Rule    int
	Error   Kind
	Latency time.Duration
	// Aimed marks the call's items the rule aims at: the items its table
	// and key select (every item when it names neither); for
	// UnprocessedItems and UnprocessedKeys, when it names neither, the
	// later half of the batch (at least one), so that part is written.
	Aimed []bool
}

// Decide is the decision on call c: the first rule, in order, that
// matches c and fires; false when none does. A rule counts each call it
// matches up to the one a rule fires on; rules after that one do not see
// the call.
func (s *Set) Decide(c Call) (Decision, bool) {
	if s == nil {
		return Decision{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, r := range s.rules {
		aimed, ok := r.match(c)
		if !ok {
			continue
		}
		r.matched++
		if !r.fires() {
			continue
		}
		r.hits++
		return Decision{Rule: i, Error: r.Error, Latency: r.Latency, Aimed: aimed}, true
	}
	return Decision{}, false
}

// fires reports whether the call just counted is one the rule fires on.
func (r *state) fires() bool {
	switch {
	case r.Every > 0:
		return r.matched%int64(r.Every) == 0
	case r.First > 0:
		return r.matched <= int64(r.First)
	case r.Rate > 0:
		return r.rng.Float64() < r.Rate
	}
	return true
}

// match reports whether r matches c, and which of c's items it aims at.
func (r Rule) match(c Call) ([]bool, bool) {
	if r.Op != "" && r.Op != c.Op {
		return nil, false
	}
	if !r.Error.Meets(c.Op) {
		return nil, false
	}
	if r.Index != "" && r.Index != c.Index {
		return nil, false
	}
	aimed := make([]bool, len(c.Items))
	any := false
	for i, it := range c.Items {
		if r.Table != "" && it.Table != r.Table {
			continue
		}
		if r.KeyAttr != "" && !r.keyMatches(it.Key[r.KeyAttr], it.Key) {
			continue
		}
		aimed[i], any = true, true
	}
	if (r.Table != "" || r.KeyAttr != "") && !any {
		return nil, false
	}
	if r.Table == "" && r.KeyAttr == "" && (r.Error == UnprocessedItems || r.Error == UnprocessedKeys) {
		for i := range aimed {
			aimed[i] = i >= len(aimed)/2
		}
	}
	return aimed, true
}

func (r Rule) keyMatches(v string, key map[string]string) bool {
	if _, ok := key[r.KeyAttr]; !ok {
		return false
	}
	if r.KeyPrefix {
		return strings.HasPrefix(v, r.KeyValue)
	}
	return v == r.KeyValue
}

// RuleStatus is one rule's counts so far.
type RuleStatus struct {
	Rule    string `json:"rule"`    // the rule, as Parse reads it
	Matched int64  `json:"matched"` // calls it matched
	Hits    int64  `json:"hits"`    // of those, the calls it fired on
}

// Status is each rule's counts, in the set's order.
func (s *Set) Status() []RuleStatus {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RuleStatus, len(s.rules))
	for i, r := range s.rules {
		out[i] = RuleStatus{r.text, r.matched, r.hits}
	}
	return out
}

// Rules is the set's rules, in order.
func (s *Set) Rules() []Rule {
	if s == nil {
		return nil
	}
	out := make([]Rule, len(s.rules))
	for i, r := range s.rules {
		out[i] = r.Rule
	}
	return out
}
