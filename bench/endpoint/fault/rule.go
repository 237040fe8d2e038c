package fault

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rule is one fault rule: which calls it matches, when it fires among
// them, and what it makes of a call it fires on.
type Rule struct {
	// Op is the operation matched ("" for any the error can meet).
	Op string
	// Table is the table matched: a call with an item on it ("" for any).
	Table string
	// Index is the index a Query or Scan must name ("" for any call).
	Index string
	// KeyAttr and KeyValue: a call with an item (a key, an item put, a
	// Query's key condition) whose attribute KeyAttr is KeyValue, or
	// begins with it when KeyPrefix ("" for any).
	KeyAttr, KeyValue string
	KeyPrefix         bool
	// At most one of Every (every Nth call matched), First (the first N
	// matched) and Rate (each matched call with this chance, drawn from
	// the seeded source); none: every call matched.
	Every, First int
	Rate         float64
	// Error is what the rule answers; None with a Latency serves the call
	// late.
	Error Kind
	// Latency delays the call before it is answered (or before the error).
	Latency time.Duration
}

// MaxLatency bounds latency=, below the endpoint's own bound on a
// request's whole read so that a late answer stays an answer.
const MaxLatency = 30 * time.Second

// maxCount bounds every= and first=: past it a rule never or always
// fires in any run a test drives.
const maxCount = 1 << 30

// Parse reads one rule, such as
//
//	op=TransactWriteItems table=T key=PK:X every=3 error=TransactionConflict
//
// and refuses one that is not whole, naming the word and the fix.
func Parse(text string) (Rule, error) {
	var r Rule
	words := strings.Fields(text)
	if len(words) == 0 {
		return r, fmt.Errorf("the rule is empty: give at least error=KIND or latency=DURATION, like %q", "op=GetItem error=ThrottlingException")
	}
	seen := map[string]bool{}
	for _, w := range words {
		name, value, ok := strings.Cut(w, "=")
		if !ok || value == "" {
			return r, fmt.Errorf("%q is not name=value: write each setting as name=value with no spaces, like table=Orders", w)
		}
		if seen[name] {
			return r, fmt.Errorf("%s= is given twice: keep one", name)
		}
		seen[name] = true
		if err := r.set(name, value); err != nil {
			return r, err
		}
	}
	return r, r.check()
}

// set reads one name=value.
func (r *Rule) set(name, value string) error {
	var err error
	switch name {
	case "op":
		if !slices.Contains(Ops, value) {
			return fmt.Errorf("op=%s is not a data-plane operation: want one of %s", value, strings.Join(Ops, ", "))
		}
		r.Op = value
	case "table":
		r.Table = value
	case "index":
		r.Index = value
	case "key":
		attr, v, ok := strings.Cut(value, ":")
		if !ok || attr == "" || v == "" {
			return fmt.Errorf("key=%s: want key=ATTRIBUTE:VALUE (exact) or key=ATTRIBUTE:PREFIX* (a prefix), like key=PK:ORDER#7", value)
		}
		r.KeyAttr, r.KeyValue = attr, v
		if p, ok := strings.CutSuffix(v, "*"); ok {
			if p == "" {
				return fmt.Errorf("key=%s matches every value: leave key= out to match any key", value)
			}
			r.KeyValue, r.KeyPrefix = p, true
		}
	case "every":
		r.Every, err = count(name, value)
	case "first":
		r.First, err = count(name, value)
	case "rate":
		r.Rate, err = strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(r.Rate) || r.Rate <= 0 || r.Rate > 1 {
			return fmt.Errorf("rate=%s: want a chance above 0 and at most 1, like rate=0.1 (drawn from --fault-seed)", value)
		}
	case "error":
		r.Error = Kind(value)
		if !slices.ContainsFunc(kinds, func(k struct {
			kind Kind
			ops  []string
		}) bool {
			return k.kind == r.Error
		}) {
			return fmt.Errorf("error=%s is not a fault: want one of %s", value, kindNames())
		}
	case "latency":
		r.Latency, err = time.ParseDuration(value)
		if err != nil || r.Latency <= 0 || r.Latency > MaxLatency {
			return fmt.Errorf("latency=%s: want a duration above 0 and at most %v, like latency=200ms", value, MaxLatency)
		}
	default:
		return fmt.Errorf("%s= is not a setting of a rule: want op, table, index, key, every, first, rate, error, latency", name)
	}
	return err
}

func count(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 || n > maxCount {
		return 0, fmt.Errorf("%s=%s: want a whole number of calls from 1 to %d, like %s=3", name, value, maxCount, name)
	}
	return n, nil
}

// check refuses settings that cannot go together.
func (r Rule) check() error {
	set := 0
	for _, n := range []bool{r.Every > 0, r.First > 0, r.Rate > 0} {
		if n {
			set++
		}
	}
	if set > 1 {
		return fmt.Errorf("every=, first= and rate= each say when the rule fires: keep one")
	}
	if r.Error == None && r.Latency == 0 {
		return fmt.Errorf("the rule does nothing: add error=KIND (one of %s) or latency=DURATION", kindNames())
	}
	if r.Op != "" && !r.Error.Meets(r.Op) {
		return fmt.Errorf("error=%s cannot happen to a %s: it meets %s; change op= or error=", r.Error, r.Op, strings.Join(opsOf(r.Error), ", "))
	}
	if partiQL(r.Op) && (r.Table != "" || r.KeyAttr != "" || r.Index != "") {
		return fmt.Errorf("op=%s: its items are in PartiQL statements, which rules do not read: leave out table=, index= and key=, or aim at the operation alone", r.Op)
	}
	if r.Index != "" && !r.Error.Meets("Query") && !r.Error.Meets("Scan") {
		return fmt.Errorf("index=%s: only a Query or a Scan names an index, and error=%s cannot happen to either: leave out index= or change error=", r.Index, r.Error)
	}
	if r.Index != "" && r.Op != "" && r.Op != "Query" && r.Op != "Scan" {
		return fmt.Errorf("index=%s: only a Query or a Scan names an index, not a %s: leave out index= or use op=Query or op=Scan", r.Index, r.Op)
	}
	return nil
}

// String is the rule as Parse reads it, its settings in one order.
func (r Rule) String() string {
	var w []string
	add := func(name, v string) {
		if v != "" {
			w = append(w, name+"="+v)
		}
	}
	add("op", r.Op)
	add("table", r.Table)
	add("index", r.Index)
	if r.KeyAttr != "" {
		v := r.KeyAttr + ":" + r.KeyValue
		if r.KeyPrefix {
			v += "*"
		}
		add("key", v)
	}
	if r.Every > 0 {
		add("every", strconv.Itoa(r.Every))
	}
	if r.First > 0 {
		add("first", strconv.Itoa(r.First))
	}
	if r.Rate > 0 {
		add("rate", strconv.FormatFloat(r.Rate, 'g', -1, 64))
	}
	add("error", string(r.Error))
	if r.Latency > 0 {
		add("latency", r.Latency.String())
	}
	return strings.Join(w, " ")
}
