package main

import (
	"bytes"
	"strings"
	"testing"
)

// A value a flag cannot take is one line naming what the flag takes, with
// no usage text before it; -h still prints the usage.
func TestABadFlagValueSaysWhatTheFlagTakes(t *testing.T) {
	for arg, want := range map[string]string{
		"--seed=abc":    "want a whole number from 0 to 18446744073709551615",
		"--count=x":     "want a whole number",
		"--window=soon": "want a duration such as 20s or 2m",
	} {
		fs := newFlags("demo", "", "")
		var out bytes.Buffer
		fs.SetOutput(&out)
		fs.Uint64("seed", 0, "a seed")
		fs.Int("count", 1, "a count")
		fs.Duration("window", 0, "a window")
		err := parseFlags(fs, []string{arg})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", arg, err, want)
		}
		if out.Len() > 0 {
			t.Errorf("%s printed the usage:\n%s", arg, out.String())
		}
	}
	fs := newFlags("demo", "", "")
	var out bytes.Buffer
	fs.SetOutput(&out)
	if err := parseFlags(fs, []string{"-h"}); err == nil || !strings.Contains(out.String(), "usage: ddbharness demo") {
		t.Errorf("-h: %v, printed %q, want the usage", err, out.String())
	}
}
