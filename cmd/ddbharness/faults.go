package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// faultFlags are local's fault rules: --fault (repeated), --faults FILE
// and --fault-seed.
type faultFlags struct {
	rules ruleList
	file  string
	seed  uint64
}

// ruleList is a flag given once per rule.
type ruleList []string

func (l *ruleList) String() string     { return strings.Join(*l, "; ") }
func (l *ruleList) Set(v string) error { *l = append(*l, v); return nil }

func (f *faultFlags) add(fs *flag.FlagSet) {
	fs.Var(&f.rules, "fault", "a fault rule the endpoint answers with, like 'op=TransactWriteItems table=T key=PK:X every=3 error=TransactionConflict' (repeat for more; docs/capacity-and-throttling.md, Fault rules)")
	fs.StringVar(&f.file, "faults", "", "a file of fault rules, one a line, # comments (FAULTS)")
	fs.Uint64Var(&f.seed, "fault-seed", 1, "the seed of the rules' rate= draws (FAULT_SEED)")
}

// set reads the rules, --faults' first; nil when none is given. A rule
// that is not whole is bad input, named with its fix.
func (f *faultFlags) set(cmd string) (*fault.Set, error) {
	var rules []fault.Rule
	if f.file != "" {
		rs, err := fault.ReadFile(f.file)
		if errors.Is(err, userfile.ErrTooLarge) {
			return nil, badInputf("%s: --faults=%s (FAULTS) is over %d bytes: give a file of rules, one a line", cmd, f.file, fault.MaxFile)
		}
		if err != nil {
			return nil, badInputf("%s: --faults=%s (FAULTS): %v: fix the rule, or name a readable file of rules, one a line", cmd, f.file, err)
		}
		rules = append(rules, rs...)
	}
	for _, text := range f.rules {
		r, err := fault.Parse(text)
		if err != nil {
			return nil, badInputf("%s: --fault %q: %v", cmd, text, err)
		}
		rules = append(rules, r)
	}
	if len(rules) == 0 {
		return nil, nil
	}
	return fault.NewSet(f.seed, rules...), nil
}

// describe is the rules as local prints them at start.
func describeFaults(s *fault.Set) string {
	var b strings.Builder
	for i, r := range s.Rules() {
		fmt.Fprintf(&b, "fault %d: %s\n", i+1, r)
	}
	fmt.Fprintf(&b, "fault seed: %d (--fault-seed)\n", s.Seed())
	return b.String()
}
