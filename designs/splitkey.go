package designs

import (
	"regexp"
	"strings"
)

// timeInKey is a time of day, with its seconds, fraction and zone if any:
// its colons are the time's, not a key's separators.
var timeInKey = regexp.MustCompile(`[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})?`)

// SplitKey splits a composite key's text on sep into at most n parts, as
// strings.SplitN does, but keeps times whole: with ":" as the separator,
// "EVENT:2024-05-01T10:00:00Z:7" is three parts, not five.
func SplitKey(text, sep string, n int) []string {
	var times [][]int
	if sep == ":" && n != 0 {
		times = timeInKey.FindAllStringIndex(text, -1)
	}
	if len(times) == 0 {
		return strings.SplitN(text, sep, n)
	}
	inTime := func(i int) bool {
		for _, t := range times {
			if i > t[0] && i < t[1] {
				return true
			}
		}
		return false
	}
	var out []string
	start := 0
	for i := 0; i < len(text) && (n < 0 || len(out) < n-1); i++ {
		if strings.HasPrefix(text[i:], sep) && !inTime(i) {
			out = append(out, text[start:i])
			start = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, text[start:])
}
