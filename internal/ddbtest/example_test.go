package ddbtest

import (
	"regexp"
	"slices"
	"testing"
)

// TestExamplesSkip: the examples that need DynamoDB run in Ginkgo's first
// process, when the label filter lets the suite's DynamoDB specs run, and
// whenever the user chose what to skip; elsewhere exactly they are skipped.
func TestExamplesSkip(t *testing.T) {
	examples := []string{"ExampleRun", "ExampleTable_CreateClient"}
	for _, c := range []struct {
		name    string
		given   string
		process int
		needed  bool
		skipped []string // of examples and two others, one of a longer name
	}{
		{"run alone", "", 1, true, nil},
		{"a second parallel process", "", 2, true, examples},
		{"a label filter that starts no DynamoDB", "", 1, false, examples},
		{"the user's -skip", "Nothing", 2, false, nil},
	} {
		pattern := examplesSkip(c.given, c.process, c.needed, examples)
		var skipped []string
		for _, name := range append(examples, "ExampleTable", "ExampleRunLimited") {
			if pattern != "" && regexp.MustCompile(pattern).MatchString(name) {
				skipped = append(skipped, name)
			}
		}
		if !slices.Equal(skipped, c.skipped) {
			t.Errorf("%s: -skip %q skips %q, want %q", c.name, pattern, skipped, c.skipped)
		}
	}
}
