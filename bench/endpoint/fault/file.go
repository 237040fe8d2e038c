package fault

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/internal/userfile"
)

// MaxFile bounds a rules file (--faults): far above any set of rules a
// test aims, and small enough to read whole.
const MaxFile = 1 << 20

// ReadFile reads the rules of a rules file: one rule a line; blank lines
// and lines whose first non-blank character is # are skipped (a # inside a
// rule is part of it: keys often hold one). The file must be regular and
// at most MaxFile bytes. An error names the file, the line and the rule.
func ReadFile(path string) ([]Rule, error) {
	b, err := userfile.ReadRegular(path, MaxFile)
	if err != nil {
		return nil, err
	}
	return ParseLines(path, string(b))
}

// ParseLines reads the rules of text, a rules file's content; name is
// what an error calls the file.
func ParseLines(name, text string) ([]Rule, error) {
	var rules []Rule
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: rule %q: %w", name, i+1, line, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}
