package hostile

import (
	"strings"
	"testing"
)

// TestProfileReadsWhole: every rule of the profile is one the fault
// rules accept, printed back as written, so what verify prints is what
// the endpoint decides by.
func TestProfileReadsWhole(t *testing.T) {
	rules, err := Rules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != len(Profile) {
		t.Fatalf("%d rules read of %d lines", len(rules), len(Profile))
	}
	for i, r := range rules {
		if r.String() != Profile[i] {
			t.Errorf("rule %d prints as %q, written %q", i, r.String(), Profile[i])
		}
	}
	if d := Describe(1); !strings.Contains(d, "fault seed 1") || !strings.Contains(d, Profile[0]) {
		t.Errorf("Describe(1) = %q: want the seed and every rule", d)
	}
}
